import type { ChildProcess } from 'node:child_process'
import type { Locator, Page } from '@playwright/test'
import { stopGroup } from '../test/fixtures/process-group'
import type { SeenRequest } from '../test/fixtures/real-deployment'
import { expect, test } from './fixtures/app'
import { startJsonLineProcess } from './fixtures/json-line-process'
import { screenshotsBothSizes } from './fixtures/laptop'

/**
 * The window against a double of a real deployment (test/fixtures/real-deployment.ts),
 * as a new user meets one: an auth server that matches the OAuth audience
 * exactly, no API description (404), errors as `{message}`, options it does not
 * know ignored. Everything is done by accessible names, as a user would.
 */

interface Deployment {
  queryUrl: string
  authUrl: string
  account: { clientId: string; clientSecret: string }
  /** What reached the double so far, each once answered. */
  requests: SeenRequest[]
}

let deployment: Deployment
let child: ChildProcess | undefined

/** The double in a process group of its own (test/fixtures/real-deployment-cli.ts): this runner cannot load the embedded service. */
test.beforeAll(async () => {
  const requests: SeenRequest[] = []
  const started = await startJsonLineProcess<Omit<Deployment, 'requests'>>('test/fixtures/real-deployment-cli.ts', ['not-found'], (line) => {
    requests.push((line as { request: SeenRequest }).request)
  })
  child = started.child
  deployment = { ...started.ready, requests }
})
test.afterAll(async () => {
  if (child) await stopGroup(child)
})

async function fillForm(dialog: Locator, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await dialog.getByRole('textbox', { name, exact: true }).fill(value)
}

const urlBox = (page: Page) => page.getByRole('textbox', { name: 'Request URL' })
const firstRank = (page: Page) => page.getByRole('grid', { name: 'Results' }).getByRole('gridcell').first()

/** A new connection to the double, started from the Spinque cloud preset, with the double's two addresses typed over the preset's. */
async function connect(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New connection' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('radio', { name: 'Spinque cloud' }).check()
  await expect(dialog.getByRole('textbox', { name: 'Query URL', exact: true })).toHaveValue('https://rest.spinque.com/')
  await expect(dialog.getByRole('combobox', { name: 'Token request' })).toHaveValue('oauth')
  await expect(dialog.getByRole('textbox', { name: 'Version', exact: true })).toHaveValue('4')
  await fillForm(dialog, {
    Name: name,
    'Query URL': deployment.queryUrl,
    'Auth URL': deployment.authUrl,
    Workspace: 'world',
    API: 'places',
    'Client ID': deployment.account.clientId,
    'Client secret': deployment.account.clientSecret,
  })
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  const results = dialog.getByRole('region', { name: 'Test results' })
  await expect(results).toContainText('Connection works')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
}

test('a real deployment: OAuth with the exact audience, no description, a facet declared by hand, an unknown option kept and sent', async ({ page, app, context }) => {
  await page.goto(await app.pageUrl())
  await connect(page, 'Real deployment')

  // The token was asked with the query URL exactly as typed, its trailing slash kept, and given.
  await expect.poll(() => deployment.requests.filter((request) => request.host === 'auth' && request.url === '/oauth/token').length).toBeGreaterThan(0)
  const tokens = deployment.requests.filter((request) => request.host === 'auth' && request.url === '/oauth/token')
  expect(tokens.map((request) => [request.audience, request.status])).toEqual(tokens.map(() => [deployment.queryUrl, 200]))

  // No description: the endpoint is typed, and the window says what it could not learn.
  const step = page.getByRole('group', { name: 'Step 1' })
  await step.getByRole('combobox', { name: 'Endpoint' }).fill('search')
  await step.getByRole('combobox', { name: 'Endpoint' }).press('Enter')
  const toggle = page.getByRole('button', { name: 'Statistics and facets' })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  const facets = page.getByRole('region', { name: 'Facets' })
  await expect(facets).toContainText('This API serves no description (404)')
  if ((await step.getByRole('textbox', { name: 'query' }).count()) === 0) {
    await step.getByRole('button', { name: 'Add parameter' }).click()
    await step.getByRole('textbox', { name: 'Parameter name' }).fill('query')
    await step.getByRole('textbox', { name: 'Parameter name' }).press('Enter')
  }
  await step.getByRole('textbox', { name: 'query' }).fill('san')
  await expect(urlBox(page)).toHaveValue(`${deployment.queryUrl}4/world/api/places/e/search/p/query/san/results?config=default&count=10`)
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(firstRank(page)).toHaveText('1')

  // A facet declared by hand, as FacetedSearch.addFacet does: its options listed, one picked, the filter stacked.
  await facets.getByRole('button', { name: 'Declare a facet' }).click()
  const form = facets.getByRole('form', { name: 'Declare a facet' })
  await form.getByRole('textbox', { name: 'Options endpoint' }).fill('country')
  await expect(form.getByRole('textbox', { name: 'Filter endpoint' })).toHaveValue('country:FILTER')
  await expect(form.getByRole('textbox', { name: 'Parameter' })).toHaveValue('value')
  await form.getByRole('button', { name: 'Declare facet' }).click()
  const country = facets.getByRole('group', { name: 'country' })
  const first = country.getByRole('checkbox').first()
  await expect(first).toBeVisible()
  await first.check()
  // One at a time: the option id written bare, as the official client writes a single selection.
  await expect(urlBox(page)).toHaveValue(/\/e\/search\/p\/query\/san\/e\/country:FILTER\/p\/value\/[^/()]+\/results\?config=default&count=10$/)
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(firstRank(page)).toHaveText('1')
  await expect(first).toBeChecked()
  await screenshotsBothSizes(page, 'real-deployment-facet-declared')

  // A pasted URL with an option the app does not know: kept as an "Other options" row and sent as written.
  const pasted = `${deployment.queryUrl}4/world/api/places/e/search/p/query/madrid/results?config=default&count=10&dev_version=master`
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(pasted)})`)
  await urlBox(page).focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('ControlOrMeta+V')
  await expect(page.getByRole('textbox', { name: 'Value of dev_version' })).toHaveValue('master')
  await expect(urlBox(page)).toHaveValue(pasted)
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(firstRank(page)).toHaveText('1')
  await expect.poll(() => deployment.requests.some((request) => request.host === 'query' && request.url.includes('/query/madrid/results?') && request.url.endsWith('&dev_version=master') && request.bearer)).toBe(true)
})
