import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ExplorerBridge } from '../../src/shared/ipc/contract'
import { DEMO_VIEW, TEST_INFO } from './window-fixtures'

/**
 * The request URL box while the app is still starting: a URL the user typed
 * or pasted stays in the box when the app puts its starting chain in place
 * meanwhile (the API's description arriving), and Enter reads it; a chain
 * changed while the box is not being written in replaces unconfirmed text.
 */

const bridge: ExplorerBridge = {
  async invoke(channel) {
    const answers: Record<string, unknown> = {
      'app:info': TEST_INFO,
      'connections:list': [DEMO_VIEW],
      'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } },
    }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
})

async function start() {
  window.explorer = bridge
  const [{ default: RequestUrlBox }, { useConnectionsStore }, { useChainStore }] = await Promise.all([
    import('../../src/renderer/components/chain/RequestUrlBox.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/chain'),
  ])
  const pinia = createPinia()
  const screen = await render(RequestUrlBox, { global: { plugins: [pinia] } })
  await useConnectionsStore(pinia).load()
  return { screen, chain: useChainStore(pinia) }
}

const queryOf = (chain: { chain: { step: unknown }[] }) => (chain.chain[0]!.step as { parameters: Record<string, string> }).parameters.query

describe('RequestUrlBox', () => {
  it('keeps a URL being typed when the starting chain arrives meanwhile, and Enter reads it', async () => {
    const { screen, chain } = await start()
    const box = screen.getByRole('textbox', { name: 'Request URL' })
    await userEvent.fill(box, 'http://127.0.0.1:1/query/world/api/places/e/search/p/query/paris/results?count=0')
    // The API's description arrives: the app puts its starting chain (search, nothing typed) in place.
    chain.updateStep(0, { endpoint: 'search', parameters: { query: '' } })
    await expect.poll(() => (box.element() as HTMLTextAreaElement).value).toMatch(/query\/paris\/results\?count=0$/)
    await userEvent.keyboard('{Enter}')
    await expect.poll(() => queryOf(chain)).toBe('paris')
    expect(chain.count).toBe(0)
  })

  it('follows a chain changed while it is not being written in', async () => {
    const { screen, chain } = await start()
    const box = screen.getByRole('textbox', { name: 'Request URL' })
    await userEvent.fill(box, 'http://127.0.0.1:1/query/world/api/places/e/search/p/query/lima/results')
    ;(document.activeElement as HTMLElement | null)?.blur()
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'oslo' } })
    await expect.poll(() => (box.element() as HTMLTextAreaElement).value).toMatch(/query\/oslo\/results/)
  })
})
