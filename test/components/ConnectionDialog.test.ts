import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import type { AppInfo, ConnectionView, ExplorerBridge } from '../../src/shared/ipc/contract'

/**
 * The connection form names what the shared connection rules find wrong, in
 * the main process's words, per field, before anything is sent.
 */

const INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: null, notices: [] }

/** Every channel the form called, in order. */
const calls: { channel: string; request: unknown }[] = []

const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    calls.push({ channel, request })
    if (channel === 'connections:save') {
      const view: ConnectionView = {
        ...(request as Omit<ConnectionView, 'id' | 'builtIn' | 'hasSecret' | 'tokenRequestsLastHour'>),
        id: 'c1', builtIn: false, hasSecret: false, tokenRequestsLastHour: 0,
      }
      return { ok: true, data: view } as never
    }
    const answers: Record<string, unknown> = { 'app:info': INFO, 'connections:list': [] }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  calls.length = 0
})

/** The window's client picks its bridge when it loads: the stand-in goes in first. */
async function mount() {
  window.explorer = bridge
  const { default: ConnectionDialog } = await import('../../src/renderer/components/connection/ConnectionDialog.vue')
  const screen = await render(ConnectionDialog, { props: { connectionId: null }, global: { plugins: [createPinia()] } })
  const dialog = screen.getByRole('dialog', { name: 'New connection' })
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true })
  return { screen, dialog, field }
}

describe('ConnectionDialog', () => {
  it('names every broken rule at once, per field, and sends nothing', async () => {
    const { dialog, field } = await mount()
    await field('Name').fill('   ')
    await field('Auth URL').fill('ftp://auth.example.com')
    await field('Query URL').fill('nope')
    await field('Version').fill('v4')
    await field('Client ID').fill('client')
    await dialog.getByRole('button', { name: 'Save' }).click()

    const alert = dialog.getByRole('alert')
    await expect.element(alert).toHaveTextContent('Not saved.')
    await expect.element(alert).toHaveTextContent('Name: give the connection a name.')
    await expect.element(alert).toHaveTextContent('Auth URL: The URL must start with http:// or https:// (got ftp:).')
    await expect.element(alert).toHaveTextContent('Query URL: "nope" is not a valid URL.')
    await expect.element(alert).toHaveTextContent('Version: a number such as 4 (or leave it empty), not "v4".')
    await expect.element(alert).toHaveTextContent('Workspace: enter the workspace name.')
    await expect.element(field('Auth URL')).toHaveAttribute('aria-invalid', 'true')
    await expect.element(field('Workspace')).toHaveAttribute('aria-invalid', 'true')
    await expect.element(field('API')).not.toHaveAttribute('aria-invalid')
    expect(calls.map((call) => call.channel)).not.toContain('connections:save')
  })

  it('names a deadline as typed, opening the advanced settings; Test sends nothing either', async () => {
    const { dialog, field } = await mount()
    await field('Name').fill('Local')
    await field('Query URL').fill('https://query.example.com')
    await field('Workspace').fill('world')
    await dialog.getByText('Advanced settings').click()
    await field('Request deadline (seconds)').fill('abc')
    await dialog.getByRole('button', { name: 'Test connection' }).click()
    const message = 'Request deadline: a whole number of seconds from 1 to 600 (or leave it empty for 60), not abc.'
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(`Not tested.${message}`)
    await expect.element(field('Request deadline (seconds)')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.map((call) => call.channel)).not.toContain('connections:check')
  })

  it('saves a profile that keeps the rules', async () => {
    const { screen, dialog, field } = await mount()
    await field('Name').fill('Local')
    await field('Query URL').fill('https://query.example.com')
    await field('Workspace').fill('world')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => screen.emitted('close')).toHaveLength(1)
    expect(calls.find((call) => call.channel === 'connections:save')?.request).toMatchObject({ name: 'Local', workspace: 'world' })
    expect(screen.emitted('saved')).toEqual([['c1']])
  })
})
