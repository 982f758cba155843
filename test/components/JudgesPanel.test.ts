import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, judgeStatus, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Evaluation view's Judges part: the workspace's judges listed (the
 * demo's stand-in labelled so, each with its grades in the set), edited,
 * added and deleted, and the one chosen given its key field and its run;
 * the choice and Delete held while a run runs. The key field and the run
 * on their own: JudgeKeyField.test.ts, JudgeRunPanel.test.ts.
 */

const fake = bridgeForFile()
const realConfirm = window.confirm
afterEach(() => (window.confirm = realConfirm))

/** The two-query set with two grades of the demo judge. */
const SET: QuerySet = {
  ...TWO_QUERY_SET,
  judgments: [
    ...TWO_QUERY_SET.judgments,
    { query: 'q01', item: 'paris-1', rater: 'llm:demo', grade: 2, explanation: 'A city named Paris.' },
    { query: 'q02', item: 'rome-1', rater: 'llm:demo', grade: 3, explanation: 'The capital of Italy.' },
  ],
}

async function mount(answers: Record<string, unknown> = {}) {
  const pinia = demoWindow(fake, {
    'sets:get': SET,
    'eval:list': [],
    'judges:key-status': { origin: 'http://127.0.0.1:8080', stored: false, storage: 'os' },
    ...answers,
  })
  const [{ default: JudgesPanel }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/JudgesPanel.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(judgesView(SET))
  const screen = Object.assign(await render(JudgesPanel, { global: { plugins: [pinia] } }), { pinia })
  await expect.element(screen.getByRole('table', { name: 'LLM judges' })).toBeVisible()
  // The set is read: the run names it.
  await expect.element(screen.getByRole('heading', { name: 'Judge World cities with demo' })).toBeVisible()
  return screen
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
const cells = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()))

describe('JudgesPanel', () => {
  it('lists the judges with provider, model, base URL and their grades in the set, the demo stand-in labelled', async () => {
    const screen = await mount()
    const rows = cells(screen.getByRole('table', { name: 'LLM judges' }).element() as HTMLElement)
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['llm:demo demo', 'OpenAI-compatible', 'demo-judge', 'http://127.0.0.1:8080/v1', '2'],
      ['llm:gpt', 'OpenAI-compatible', 'gpt-4o-mini', 'https://api.openai.com/v1', '0'],
    ])
    await expect.element(screen.getByRole('button', { name: 'Edit judge gpt' })).toBeVisible()
    await screen.getByRole('button', { name: 'Edit judge gpt' }).click()
    await expect.element(screen.getByRole('dialog', { name: 'Edit judge gpt' })).toBeVisible()
  })

  it('shows where a moved judge calls now, the base URL the file names in its title', async () => {
    const screen = await mount()
    const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')
    useWorkspaceStore(screen.pinia).show({ ...judgesView(SET), judgeUrls: { demo: 'http://127.0.0.1:45583/v1' } })
    const cell = screen.getByRole('cell', { name: 'http://127.0.0.1:45583/v1' })
    await expect.element(cell).toBeVisible()
    await expect.element(cell).toHaveAttribute('title', 'The file names http://127.0.0.1:8080/v1; moved with the Demo connection to where the demo runs now.')
  })

  it("works with the judge chosen: its key's origin and its run", async () => {
    const screen = await mount()
    await expect.element(screen.getByRole('combobox', { name: 'Judge to run' })).toHaveValue('demo')
    await expect.element(screen.getByRole('form', { name: 'API key of demo' })).toBeVisible()
    await expect.element(screen.getByLabelText('API key for http://127.0.0.1:8080')).toBeVisible()
    fake.answers['judges:key-status'] = { origin: 'https://api.openai.com', stored: true, storage: 'os' }
    await screen.getByRole('combobox', { name: 'Judge to run' }).selectOptions('gpt')
    await expect.element(screen.getByRole('heading', { name: 'Judge World cities with gpt' })).toBeVisible()
    await expect.element(screen.getByText('A key is stored for https://api.openai.com (OS keychain)')).toBeVisible()
    expect(sent('judges:key-status')).toEqual([{ name: 'demo' }, { name: 'gpt' }])
    // The gpt judge's own depth (the schema's default) and concurrency go with it.
    await expect.element(screen.getByRole('spinbutton', { name: 'Judging depth' })).toHaveValue(10)
  })

  it('keeps the judge chosen and the judges while a run runs', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).toBeVisible()
    await expect.element(screen.getByRole('combobox', { name: 'Judge to run' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Delete judge gpt' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Edit judge gpt' })).toBeEnabled()
  })

  it('says how to add the first judge when the workspace has none', async () => {
    const pinia = demoWindow(fake, { 'sets:get': SET, 'eval:list': [] })
    const [{ default: JudgesPanel }, { useWorkspaceStore }] = await Promise.all([
      import('../../src/renderer/components/relevance/JudgesPanel.vue'),
      import('../../src/renderer/stores/workspace'),
    ])
    useWorkspaceStore(pinia).show(judgesView(SET, []))
    const screen = await render(JudgesPanel, { global: { plugins: [pinia] } })
    await expect.element(screen.getByText(/^No LLM judge in this workspace yet/)).toBeVisible()
    expect(screen.getByRole('table', { name: 'LLM judges' }).query()).toBeNull()
    expect(screen.getByRole('combobox', { name: 'Judge to run' }).query()).toBeNull()
    await screen.getByRole('button', { name: 'Add judge' }).click()
    await expect.element(screen.getByRole('dialog', { name: 'Add LLM judge' })).toBeVisible()
  })

  it('deletes a judge once asked', async () => {
    window.confirm = () => true
    const screen = await mount({ 'judges:delete': judgesView(SET, [DEMO_JUDGE]) })
    await screen.getByRole('button', { name: 'Delete judge gpt' }).click()
    await expect.element(screen.getByRole('button', { name: 'Edit judge gpt' })).not.toBeInTheDocument()
    expect(sent('judges:delete')).toEqual([{ name: 'gpt' }])
  })
})
