import type { ChildProcess } from 'node:child_process'
import type { Locator, Page } from '@playwright/test'
import { stopGroup } from '../test/fixtures/process-group'
import { expect, test } from './fixtures/app'
import { startJsonLineProcess } from './fixtures/json-line-process'

/**
 * Connection profiles through the form, against a service of this spec's own
 * (its account's secret is typed into the form, as a user would; the app never
 * sends it back to the window).
 */

interface Service {
  authUrl: string
  queryUrl: string
  account: { clientId: string; clientSecret: string }
}

let service: Service
let child: ChildProcess | undefined

/**
 * The embedded service in a process of its own (`npm run service -- --json`), as a user would run it: tsx loaded
 * into that one process (its cli would run the service in a child of its own), in a process group the test stops whole.
 */
test.beforeAll(async () => {
  const started = await startJsonLineProcess<Service>('src/service/cli.ts', ['--port', '0', '--json'])
  child = started.child
  service = started.ready
})
test.afterAll(async () => {
  if (child) await stopGroup(child)
})

async function fillForm(dialog: Locator, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    await dialog.getByRole('textbox', { name, exact: true }).fill(value)
  }
}

const connectionBox = (page: Page) => page.getByRole('combobox', { name: 'Connection' })

test('shows the demo connection, read-only, with its addresses and client id', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await expect(connectionBox(page)).toHaveValue('demo')
  await page.getByRole('button', { name: 'Connection settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Demo connection' })
  await expect(dialog.getByRole('textbox', { name: 'Auth URL' })).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+/)
  await expect(dialog.getByRole('textbox', { name: 'Client ID' })).toHaveValue('demo')
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveCount(0)
  await page.screenshot({ path: 'e2e/output/connections-demo.png' })
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(dialog.getByRole('region', { name: 'Test results' })).toContainText('Connection works')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toHaveCount(0)
})

test('creates, tests, re-authenticates and deletes a connection through the form', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await page.getByRole('button', { name: 'New connection' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toHaveAccessibleName('New connection')

  // Bad values are named per field, and nothing is saved.
  await fillForm(dialog, { Name: 'Local copy', 'Auth URL': 'not a url', 'Query URL': service.queryUrl, Version: 'v4', Workspace: 'world' })
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByRole('alert')).toContainText('Auth URL:')
  await expect(dialog.getByRole('alert')).toContainText('Version: a number')
  await expect(dialog.getByRole('textbox', { name: 'Auth URL' })).toHaveAttribute('aria-invalid', 'true')
  await page.screenshot({ path: 'e2e/output/connections-form-invalid.png' })

  await fillForm(dialog, {
    'Auth URL': service.authUrl,
    Version: '4',
    API: 'places',
    'Client ID': service.account.clientId,
    'Client secret': service.account.clientSecret,
  })
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  const results = dialog.getByRole('region', { name: 'Test results' })
  await expect(results).toContainText('Connection works')
  await expect(results).toContainText('A token was issued for workspace "world"')
  await expect(results).toContainText('API "places" answered')
  // Testing saves nothing: still the new, unsaved form, with the secret as typed.
  await expect(dialog).toHaveAccessibleName('New connection')
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveValue(service.account.clientSecret)
  await page.screenshot({ path: 'e2e/output/connections-test-ok.png' })

  // A wrong secret: the 401 and its reason, not a generic failure.
  await fillForm(dialog, { 'Client secret': 'certainly-not-the-secret' })
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(results).toContainText('Connection test failed')
  await expect(results).toContainText('401')
  await expect(results).toContainText('Invalid client credentials')
  await page.screenshot({ path: 'e2e/output/connections-test-401.png' })

  // The right one again, then Save: the dialog closes, says so, and the new connection is the selected one.
  await fillForm(dialog, { 'Client secret': service.account.clientSecret })
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Saved “Local copy”. The client secret is' })).toBeVisible()
  await expect(connectionBox(page).locator('option:checked')).toHaveText('Local copy')

  // Re-authenticate asks the service for a new token, and the count beside the connection goes up.
  const count = page.getByText(/\d+ token requests? in the last hour/)
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  const profiles = (await app.invoke('connections:list', {})).data as { name: string; tokenRequestsLastHour: number }[]
  const before = profiles.find((connection) => connection.name === 'Local copy')!.tokenRequestsLastHour
  // The test, then the test with the wrong secret: each sent one token request (and kept no token: using the saved profile may ask for its own).
  expect(before).toBeGreaterThanOrEqual(2)
  await page.getByRole('button', { name: 'Re-authenticate' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'New token issued' })).toBeVisible()
  await expect(count).toHaveText(`${before + 1} token requests in the last hour`)
  await page.screenshot({ path: 'e2e/output/connections-reauth.png' })

  // Delete asks first, then removes the profile (and its keychain entries).
  await page.getByRole('button', { name: 'Connection settings' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(dialog.getByRole('group', { name: 'Confirm delete' })).toContainText('keychain entries')
  await page.screenshot({ path: 'e2e/output/connections-delete-confirm.png' })
  await dialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(connectionBox(page).getByRole('option', { name: 'Local copy' })).toHaveCount(0)
  await expect(connectionBox(page)).toHaveValue('demo')
  const listed = (await app.invoke('connections:list', {})).data as { name: string }[]
  expect(listed.map((connection) => connection.name)).not.toContain('Local copy')
})
