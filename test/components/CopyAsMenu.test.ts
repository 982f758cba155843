import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { SECRET_VARIABLE } from '../../src/shared/copy-as/copy-as'
import { SAN_IN_EUROPE } from '../fixtures/search-request'
import { activeWindow, clearWindowAfterEach, recordingBridge } from './mount-with-bridge'

/**
 * The Copy as menu (issue 23 §2, item 3): it offers the Demo's curl for the
 * Demo alone and gets its text from the main process; the other entries are
 * built here, put on the clipboard and confirmed in a toast that names the
 * variable to set when the text needs the client secret.
 */

const { bridge, sent } = recordingBridge({ 'copy-as:demo-with-secret': { text: 'DEMO CURL TEXT' } })
clearWindowAfterEach(() => void (sent.length = 0))

const request = SAN_IN_EUROPE

const connection = (id: string, builtIn: boolean): ConnectionView => ({
  id, builtIn, name: id, authUrl: 'http://127.0.0.1:1', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places', clientId: 'c',
  hasSecret: true, tokenRequestsLastHour: 0,
})

/** The request's URL as the service reads it: steps as path segments, the options as the query string. */
const URL_TEXT = 'http://127.0.0.1:1/query/world/api/places/e/search/p/query/san/e/continent:FILTER/p/value/1(%22Europe%22)/results?config=default&count=10'

describe('Copy as menu', () => {
  async function mount(selected: ConnectionView) {
    const pinia = activeWindow(bridge)
    const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
    const { useChainStore } = await import('../../src/renderer/stores/chain')
    const connections = useConnectionsStore()
    connections.connections = [selected]
    connections.selectedId = selected.id
    await useChainStore().loadRequest(request)
    const { default: CopyAsMenu } = await import('../../src/renderer/components/chain/CopyAsMenu.vue')
    return render(CopyAsMenu, { props: { disabled: false }, global: { plugins: [pinia] } })
  }

  it("offers curl with the Demo's secret for the Demo only, and asks the main process for its text", async () => {
    const demo = await mount(connection('demo', true))
    await demo.getByRole('button', { name: 'Copy as' }).click()
    const menu = demo.getByRole('menu', { name: 'Copy as' })
    expect(menu.getByRole('menuitem').elements().map((entry) => entry.textContent)).toEqual(['curl', "curl, with the Demo's secret", 'TypeScript', 'Python', 'Request URL'])
    await menu.getByRole('menuitem', { name: "curl, with the Demo's secret" }).click()
    await expect.poll(() => sent.find((call) => call.channel === 'copy-as:demo-with-secret')?.request).toMatchObject({ connectionId: 'demo', request: { steps: request.steps } })
    demo.unmount()

    const own = await mount(connection('mine', false))
    await own.getByRole('button', { name: 'Copy as' }).click()
    expect(own.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem').elements().map((entry) => entry.textContent)).toEqual(['curl', 'TypeScript', 'Python', 'Request URL'])
  })

  it('copies the URL as it is, and curl with a note naming the variable that holds the secret', async () => {
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    const own = await mount(connection('mine', false))
    const { useToastsStore } = await import('../../src/renderer/stores/toasts')
    const toasts = useToastsStore()

    await own.getByRole('button', { name: 'Copy as' }).click()
    await own.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem', { name: 'Request URL' }).click()
    await expect.poll(() => toasts.toasts.map((toast) => toast.message)).toEqual(['Copied the request as Request URL.'])
    expect(copied).toBe(URL_TEXT)

    await own.getByRole('button', { name: 'Copy as' }).click()
    await own.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem', { name: 'curl' }).click()
    await expect.poll(() => toasts.toasts.map((toast) => toast.message)).toEqual([`Copied the request as curl. Set ${SECRET_VARIABLE} to the client secret before running it.`])
    // The secret is read from the environment, never written into the text.
    expect(copied).toContain(`"$${SECRET_VARIABLE}"`)
    expect(copied).toContain(`curl -s -H "Authorization: Bearer $TOKEN" '${URL_TEXT}'`)
    // Nothing asked of the main process: only the Demo's curl is built there.
    expect(sent.filter((call) => call.channel === 'copy-as:demo-with-secret')).toEqual([])
  })
})
