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
    const answers: Record<string, unknown> = { 'app:info': INFO, 'connections:list': [], 'secrets:set': { stored: 'os' } }
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
    await expect.element(field('API')).toHaveAttribute('aria-invalid', 'false')
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

  it('starts a first real connection from the Spinque cloud preset: four fields of the user\'s own', async () => {
    const { screen, dialog, field } = await mount()
    await expect.element(dialog.getByRole('radio', { name: 'Auth host with /api/auth' })).toBeChecked()
    await dialog.getByRole('radio', { name: 'Spinque cloud' }).click()
    await expect.element(field('Query URL')).toHaveValue('https://rest.spinque.com/')
    await expect.element(field('Auth URL')).toHaveValue('https://login.spinque.com')
    await expect.element(field('Version')).toHaveValue('4')
    await expect.element(field('Name')).toHaveValue('Spinque cloud')
    await expect.element(dialog.getByRole('combobox', { name: 'Token request' })).toHaveValue('oauth')

    await field('Workspace').fill('acme')
    await field('API').fill('movies')
    await field('Client ID').fill('m2m-client')
    await field('Client secret').fill('m2m-secret')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => screen.emitted('close')).toHaveLength(1)
    expect(calls.find((call) => call.channel === 'connections:save')?.request).toEqual({
      name: 'Spinque cloud',
      authUrl: 'https://login.spinque.com',
      queryUrl: 'https://rest.spinque.com/',
      version: '4',
      workspace: 'acme',
      api: 'movies',
      clientId: 'm2m-client',
      tokenRequest: 'oauth',
    })
    expect(calls.find((call) => call.channel === 'secrets:set')?.request).toEqual({ connectionId: 'c1', secret: 'm2m-secret' })
  })

  it('offers the Sparque base as a template to complete, and guesses no auth host', async () => {
    const { dialog, field } = await mount()
    await field('Workspace').fill('acme')
    await field('Client ID').fill('m2m-client')
    await dialog.getByRole('radio', { name: 'Sparque' }).click()
    await expect.element(field('Query URL')).toHaveValue('https://rest.sparque.ai/<workspace>/')
    await expect.element(field('Query URL')).toHaveFocus()
    await expect.element(field('Auth URL')).toHaveValue('')
    // What the user typed of their own stays.
    await expect.element(field('Workspace')).toHaveValue('acme')
    await dialog.getByRole('button', { name: 'Save' }).click()
    const alert = dialog.getByRole('alert')
    await expect.element(alert).toHaveTextContent('Query URL: replace <workspace> with your own value.')
    await expect.element(alert).toHaveTextContent('Auth URL: enter the address, starting with http:// or https://.')
    expect(calls.map((call) => call.channel)).not.toContain('connections:save')

    await field('Query URL').fill('https://rest.sparque.ai/acme/')
    await field('Auth URL').fill('https://auth.acme.example')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => calls.find((call) => call.channel === 'connections:save')?.request).toMatchObject({
      name: 'Sparque', queryUrl: 'https://rest.sparque.ai/acme/', authUrl: 'https://auth.acme.example', version: '4', tokenRequest: 'oauth',
    })
  })

  it('has an Audience under Advanced settings for OAuth only, saying what an empty one sends, and saves the one typed', async () => {
    const { screen, dialog, field } = await mount()
    await field('Name').fill('Exact')
    await field('Query URL').fill('https://rest.example.com/')
    await field('Workspace').fill('world')
    await dialog.getByText('Advanced settings').click()
    await expect.element(field('Audience')).not.toBeInTheDocument()
    await dialog.getByRole('combobox', { name: 'Token request' }).selectOptions('oauth')
    await expect.element(field('Audience')).toHaveAccessibleDescription(
      'Left empty, the query URL exactly as typed is sent: https://rest.example.com/. Set it when your auth server knows the API by another name.',
    )
    await field('Audience').fill('x'.repeat(2_001))
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.element(field('Audience')).toHaveAttribute('aria-invalid', 'true')
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Audience: at most 2000 characters (this one has 2001); leave it empty to send the query URL.')
    expect(calls.map((call) => call.channel)).not.toContain('connections:save')

    await field('Audience').fill('https://api.example.com/')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => screen.emitted('close')).toHaveLength(1)
    expect(calls.find((call) => call.channel === 'connections:save')?.request).toMatchObject({ tokenRequest: 'oauth', audience: 'https://api.example.com/' })
  })
})
