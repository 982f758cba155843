import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { DEMO_CONNECTION, DEMO_INFO } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The top bar: the connection chosen is remembered in main, a connection
 * with a client shows its token requests of the last hour (and, its quota
 * used up, when to retry, with Re-authenticate held back), Re-authenticate's
 * outcome is a toast, an emptied Config box means the service's default,
 * and a keychain that does not answer is said.
 */

const fake = bridgeForFile()

const FILMS: ConnectionView = { ...DEMO_CONNECTION, id: 'c2', name: 'Films', builtIn: false, clientId: 'films', tokenRequestsLastHour: 1 }

async function mount(connections: ConnectionView[] = [DEMO_CONNECTION, FILMS], keychain: 'os' | 'memory' = 'os') {
  const pinia = demoWindow(fake, {
    'app:info': { ...DEMO_INFO, lastConnectionId: connections[0]!.id, keychain: { kind: keychain, detail: 'No Secret Service answered.' } },
    'connections:list': connections,
    'connections:use': { lastConnectionId: 'c2' },
  })
  const [{ default: ConnectionBar }, { useConnectionsStore }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/connection/ConnectionBar.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/toasts'),
  ])
  const store = useConnectionsStore(pinia)
  await store.load()
  const screen = await render(ConnectionBar, { global: { plugins: [pinia] } })
  return { screen, store, toasts: () => useToastsStore(pinia).toasts.map((toast) => [toast.tone, toast.message]) }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)

describe('ConnectionBar', () => {
  it('remembers the connection chosen, and shows its token requests with Re-authenticate, whose outcome is a toast', async () => {
    const { screen, toasts } = await mount()
    const picker = screen.getByRole('combobox', { name: 'Connection' })
    await expect.element(picker).toHaveDisplayValue('Demo')
    // The Demo has no client: no quota to show.
    expect(screen.getByRole('button', { name: 'Re-authenticate' }).elements()).toHaveLength(0)

    await picker.selectOptions('Films')
    await expect.poll(() => sent('connections:use')).toEqual([{ connectionId: 'c2' }])
    await expect.element(screen.getByText('1 token request in the last hour')).toBeVisible()

    fake.answers['connections:reauth'] = { ...FILMS, tokenRequestsLastHour: 2 }
    await screen.getByRole('button', { name: 'Re-authenticate' }).click()
    await expect.element(screen.getByText('2 token requests in the last hour')).toBeVisible()
    expect(sent('connections:reauth')).toEqual([{ connectionId: 'c2' }])
    expect(toasts()).toEqual([['info', 'New token issued for Films.']])

    fake.hold('connections:reauth')
    await screen.getByRole('button', { name: 'Re-authenticate' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.refuse({ code: 'auth', message: 'The auth server answered 401.' })
    await expect.poll(toasts).toEqual([['danger', 'Re-authenticate failed: The auth server answered 401.']])
  })

  it('holds Re-authenticate back while the quota is used up, saying when to retry', async () => {
    const { screen } = await mount([{ ...FILMS, tokenRequestsLastHour: 20, retryAt: Date.now() + 60_000 }])
    await expect.element(screen.getByText(/^Quota used up: retry in \d+ s$/)).toBeVisible()
    await expect.element(screen.getByRole('button', { name: 'Re-authenticate' })).toBeDisabled()
  })

  it("takes an emptied Config box as the service's default, and says when secrets are in memory only", async () => {
    const { screen, store } = await mount([DEMO_CONNECTION], 'memory')
    await expect.element(screen.getByRole('status')).toHaveTextContent('Secrets in memory only')
    const config = screen.getByRole('combobox', { name: 'Config' })
    await userEvent.fill(config, 'production')
    await userEvent.keyboard('{Enter}')
    await expect.poll(() => store.config).toBe('production')
    await userEvent.fill(config, '')
    await userEvent.keyboard('{Enter}')
    await expect.poll(() => store.config).toBe('default')
  })
})
