import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { Judge } from '../../src/shared/relevance/llm-judge'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, GPT_JUDGE, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * A judge's API key: typed once and sent to main (judges:set-key), the field
 * emptied at once, saved or not, so the key is never in the page or a store
 * of the window afterwards; only whether one is stored for the base URL's
 * origin, and where (the OS keychain, or memory where there is none), is
 * said. Forget key removes it (judges:clear-key); another judge is another
 * origin, asked about afresh.
 */

const fake = bridgeForFile()

const CANARY = 'sk-canary-0123456789'
const NOT_STORED = 'No key stored — not needed for the demo or Ollama'

async function mount(judge: Judge, keyStatus: unknown, view = judgesView(TWO_QUERY_SET)) {
  const pinia = demoWindow(fake, { 'sets:get': TWO_QUERY_SET, 'eval:list': [], 'judges:key-status': keyStatus })
  const [{ default: JudgeKeyField }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/JudgeKeyField.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(view)
  const screen = Object.assign(await render(JudgeKeyField, { props: { judge }, global: { plugins: [pinia] } }), { pinia, workspace: useWorkspaceStore(pinia) })
  await expect.element(screen.getByRole('form', { name: `API key of ${judge.name}` })).toBeVisible()
  return screen
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
/** The channels whose requests held the key. */
const carrying = (key: string) => fake.calls.filter((call) => JSON.stringify(call.request).includes(key)).map((call) => call.channel)

describe('JudgeKeyField', () => {
  it("asks main whether a key is stored for the judge's origin and says so, never a key", async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: false, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    expect(sent('judges:key-status')).toEqual([{ name: 'gpt' }])
    await expect.element(screen.getByLabelText('API key for https://api.openai.com')).toHaveAttribute('type', 'password')
    // Nothing typed, nothing to save; nothing stored, nothing to forget.
    await expect.element(screen.getByRole('button', { name: 'Save key' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Forget key' })).toBeDisabled()
  })

  it('says where a stored key is kept: the OS keychain, or memory until the app closes', async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: true, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent('A key is stored for https://api.openai.com (OS keychain)')
    await expect.element(screen.getByRole('button', { name: 'Forget key' })).toBeEnabled()
    await screen.unmount()

    const again = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: true, storage: 'memory' })
    await expect.element(again.getByRole('status')).toHaveTextContent('A key is stored for https://api.openai.com (in memory until the app closes: no OS keychain here)')
  })

  it('sends the key to main once and empties the field: the key is in neither the page nor any store afterwards', async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: false, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    fake.answers['judges:set-key'] = { origin: 'https://api.openai.com', stored: true, storage: 'os' }
    const field = screen.getByLabelText('API key for https://api.openai.com')
    await field.fill(CANARY)
    await screen.getByRole('button', { name: 'Save key' }).click()
    await expect.element(screen.getByRole('status')).toHaveTextContent('A key is stored for https://api.openai.com (OS keychain)')
    expect(sent('judges:set-key')).toEqual([{ name: 'gpt', key: CANARY }])
    expect(carrying(CANARY)).toEqual(['judges:set-key'])
    await expect.element(field).toHaveValue('')
    expect(document.body.innerHTML).not.toContain(CANARY)
    expect(JSON.stringify(screen.pinia.state.value)).not.toContain(CANARY)
  })

  it('empties the field when main refuses the key too, and says it was not saved', async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: false, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    fake.hold('judges:set-key')
    const field = screen.getByLabelText('API key for https://api.openai.com')
    await field.fill(CANARY)
    await screen.getByRole('button', { name: 'Save key' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.refuse({ code: 'keychain', message: 'The keychain is locked.' })
    await expect.element(screen.getByRole('alert')).toHaveTextContent(/^The key was not saved: .*The keychain is locked\./)
    await expect.element(field).toHaveValue('')
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    expect(document.body.innerHTML).not.toContain(CANARY)
    expect(JSON.stringify(screen.pinia.state.value)).not.toContain(CANARY)
  })

  it('Forget key asks main to remove it, then says none is stored', async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: true, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent('A key is stored for https://api.openai.com (OS keychain)')
    fake.answers['judges:clear-key'] = { cleared: true }
    fake.answers['judges:key-status'] = { origin: 'https://api.openai.com', stored: false, storage: 'os' }
    await screen.getByRole('button', { name: 'Forget key' }).click()
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    expect(sent('judges:clear-key')).toEqual([{ name: 'gpt' }])
    await expect.element(screen.getByRole('button', { name: 'Forget key' })).toBeDisabled()
  })

  it("another judge is another origin: the field emptied, that judge's key asked about", async () => {
    const screen = await mount(GPT_JUDGE, { origin: 'https://api.openai.com', stored: true, storage: 'os' })
    await expect.element(screen.getByRole('status')).toHaveTextContent('A key is stored for https://api.openai.com (OS keychain)')
    await screen.getByLabelText('API key for https://api.openai.com').fill('half-typed')
    fake.answers['judges:key-status'] = { origin: 'http://127.0.0.1:8080', stored: false, storage: 'os' }
    await screen.rerender({ judge: DEMO_JUDGE })
    await expect.element(screen.getByRole('form', { name: 'API key of demo' })).toBeVisible()
    await expect.element(screen.getByRole('status')).toHaveTextContent(NOT_STORED)
    await expect.element(screen.getByLabelText('API key for http://127.0.0.1:8080')).toHaveValue('')
    expect(sent('judges:key-status')).toEqual([{ name: 'gpt' }, { name: 'demo' }])
  })

  it("names the origin the judge's calls go to here (the Demo's moved port), asks again when it moves, and still names it before main answers or when it cannot", async () => {
    const moved = (url: string) => ({ ...judgesView(TWO_QUERY_SET), judgeUrls: { demo: url } })
    const screen = await mount(DEMO_JUDGE, null, moved('http://127.0.0.1:41234/v1'))
    await expect.element(screen.getByLabelText('API key for http://127.0.0.1:41234')).toBeVisible()
    expect(sent('judges:key-status')).toEqual([{ name: 'demo' }])

    // The demo started on another port: another origin, asked about afresh; named before main answers and when it cannot.
    fake.hold('judges:key-status')
    screen.workspace.show(moved('http://127.0.0.1:45555/v1'))
    await expect.poll(() => fake.held.length).toBe(1)
    await expect.element(screen.getByLabelText('API key for http://127.0.0.1:45555')).toBeVisible()
    fake.held.shift()!.refuse({ code: 'internal', message: 'the keychain is locked' })
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Whether a key is stored could not be read: the keychain is locked')
    await expect.element(screen.getByLabelText('API key for http://127.0.0.1:45555')).toBeVisible()
  })
})
