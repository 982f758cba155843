import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import RawView from '../../src/renderer/components/results/RawView.vue'
import type { QueryReply } from '../../src/shared/ipc/contract'

/**
 * The raw response: the answer as the service sent it, formatted, with its
 * URL, status, size and timings; a long one cut at 400,000 characters with a
 * note, while Copy response copies it whole and says so.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const reply = (body: unknown, fields: Partial<QueryReply> = {}): QueryReply => ({
  url: 'http://127.0.0.1:4123/query/world/api/places/e/search/p/query/san/results', status: 200, contentType: 'application/json', bytes: 2048,
  body, timings: { connectMs: 1.25, firstByteMs: 3.04, totalMs: 12.04 }, cached: true, ...fields,
})

const facts = (root: Element) => Object.fromEntries([...root.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent]))

describe('RawView', () => {
  it('shows the answer formatted, with its URL, status, size and timings', async () => {
    const screen = await render(RawView, { props: { reply: reply({ items: [{ rank: 1 }] }), label: 'Raw response' } })
    await expect.element(screen.getByLabelText('Raw response')).toHaveTextContent('{ "items": [ { "rank": 1 } ] }', { normalizeWhitespace: true })
    expect((screen.getByLabelText('Raw response').element() as HTMLElement).textContent).toBe('{\n  "items": [\n    {\n      "rank": 1\n    }\n  ]\n}')
    await expect.element(screen.getByText('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/san/results')).toBeVisible()
    expect(facts(screen.container)).toEqual({
      Status: '200', Type: 'application/json', Size: '2.0 KiB', Connect: '1.3 ms', 'First byte': '3.0 ms', Total: '12.0 ms', Cache: 'from the short-lived cache',
    })
  })

  it('cuts a long answer, says so, and copies it whole', async () => {
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    const long = 'x'.repeat(450_000)
    const screen = await render(RawView, { props: { reply: reply(long, { contentType: '', cached: false, bytes: 450_000 }), label: 'Raw response' } })
    await expect.element(screen.getByText('The response is long: the first 400,000 characters are shown; “Copy response” copies it whole.')).toBeVisible()
    expect((screen.getByLabelText('Raw response').element() as HTMLElement).textContent).toBe(`${'x'.repeat(400_000)}\n…`)
    expect(facts(screen.container)).toMatchObject({ Type: '—', Size: '439.5 KiB', Cache: 'fresh' })
    await screen.getByRole('button', { name: 'Copy response' }).click()
    await expect.element(screen.getByRole('status')).toHaveTextContent('Copied the response')
    expect(copied).toBe(long)
  })
})
