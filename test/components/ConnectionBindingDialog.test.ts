import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ConnectionView, WorkspaceBinding, WorkspaceView } from '../../src/shared/ipc/contract'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Opening a workspace whose connections this app does not have: one by one
 * ("Connection 1 of 2"), each is mapped onto the app connection most like
 * it (offered first) or created from the file with the secret typed, which
 * goes to main and nowhere else. What main refuses is said in the dialog;
 * Not now leaves the rest unbound.
 */

const fake = bridgeForFile()

const FILMS: ConnectionView = { ...DEMO_CONNECTION, id: 'c2', name: 'Films', builtIn: false, workspace: 'films', api: 'movies', clientId: 'films' }

const fileConnection = (id: string, name: string, workspace: string, api: string, clientId: string) =>
  ({ id, name, authUrl: `https://${id}.example/auth`, queryUrl: `https://${id}.example/query`, workspace, api, clientId })

function view(bound: Record<string, string | null>): WorkspaceView {
  const binding = (file: ReturnType<typeof fileConnection>): WorkspaceBinding =>
    ({ fileConnectionId: file.id, connectionId: bound[file.id] ?? null, how: bound[file.id] ? 'chosen' : 'none', connection: file }) as WorkspaceBinding
  const request = { workspace: 'films', api: 'movies', steps: [{ endpoint: 'search', parameters: { query: 'x' } }], responseType: 'results' as const, options: {} }
  return {
    name: 'Cinema', fileName: 'cinema.qxw.json', folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: [],
    queries: [
      { name: 'A', connection: 'prod', notes: '', request },
      { name: 'B', connection: 'prod', notes: '', request },
      { name: 'C', connection: 'stage', notes: '', request },
    ],
    bindings: [binding(fileConnection('prod', 'Production', 'films', 'movies', 'prod-client')), binding(fileConnection('stage', 'Staging', 'world', 'places', 'stage-client'))],
  }
}

async function mount() {
  const pinia = demoWindow(fake, { 'connections:list': [DEMO_CONNECTION, FILMS] })
  const [{ default: ConnectionBindingDialog }, { useConnectionsStore }, { useWorkspaceStore }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/workspace/ConnectionBindingDialog.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/toasts'),
  ])
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view({}))
  const outcomes: boolean[] = []
  const screen = await render(ConnectionBindingDialog, { props: { ids: ['prod', 'stage'], onDone: (resolved: boolean) => outcomes.push(resolved) }, global: { plugins: [pinia] } })
  const dialog = screen.getByRole('dialog', { name: "Connect the workspace's connections" })
  return { dialog, outcomes, toasts: () => useToastsStore(pinia).toasts.map((toast) => toast.message) }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)

describe('ConnectionBindingDialog', () => {
  it('maps the first onto the most alike connection, creates the second with its secret, and is done', async () => {
    const { dialog, outcomes, toasts } = await mount()
    await expect.element(dialog).toHaveAccessibleDescription(
      'Connection 1 of 2: “Cinema” runs 2 queries on “Production”, which this app does not have. Create it from the file, or run them on one of your connections.',
    )
    // Films has the file connection's workspace and API: it is offered first.
    await expect.element(dialog.getByRole('combobox', { name: 'Connection' })).toHaveDisplayValue('Films')
    fake.answers['workspace:bind'] = view({ prod: 'c2' })
    await dialog.getByRole('button', { name: 'Use connection' }).click()
    expect(sent('workspace:bind')).toEqual([{ fileConnectionId: 'prod', connectionId: 'c2' }])

    await expect.element(dialog).toHaveAccessibleDescription(/^Connection 2 of 2: “Cinema” runs a query on “Staging”/)
    await expect.element(dialog.getByRole('combobox', { name: 'Connection' })).toHaveDisplayValue('Demo')
    const secret = dialog.getByLabelText('Client secret')
    await expect.element(secret).toHaveAttribute('placeholder', 'Secret of stage-client')
    await secret.fill('s3cret')
    fake.answers['workspace:create-connection'] = { workspace: view({ prod: 'c2', stage: 'c3' }), connection: { name: 'Staging' } }
    await dialog.getByRole('button', { name: 'Create connection' }).click()
    await expect.poll(() => outcomes).toEqual([true])
    expect(sent('workspace:create-connection')).toEqual([{ fileConnectionId: 'stage', secret: 's3cret' }])
    expect(toasts()).toContain('Created the connection “Staging”; its client secret is in the keychain.')
  })

  it("says what main refused and stays on that connection; Not now leaves it unbound", async () => {
    const { dialog, outcomes } = await mount()
    fake.hold('workspace:bind')
    await dialog.getByRole('button', { name: 'Use connection' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.refuse({ code: 'validation', message: 'That connection is not for this workspace.' })
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('That connection is not for this workspace.')
    await expect.element(dialog).toHaveAccessibleDescription(/^Connection 1 of 2/)

    await dialog.getByRole('button', { name: 'Not now' }).click()
    expect(outcomes).toEqual([false])
    expect(sent('workspace:create-connection')).toEqual([])
  })
})
