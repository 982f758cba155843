import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import { judgeSeed, seededShuffle } from '../../src/shared/relevance/judge-queue'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import type { ResultItem } from '../../src/shared/responses'
import type { NamedPair } from '../../src/renderer/composables/useJudgeNext'
import { settle, type HeldCall } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'
import { demoSetView } from './demo-set-view'

/**
 * The Judge dialog from the keyboard alone: it asks for each query's top 10
 * (the query shown and one ahead, left out of History), shows the
 * unrated items one at a time in their shuffled order, without rank or
 * probability, a digit rating through sets:rate and moving on, S skipping,
 * ← going back; the counts follow, and the end says what is left.
 */

const fake = bridgeForFile()

const SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [
    { id: 'q01', text: 'paris' },
    { id: 'q02', text: 'lisbon' },
    { id: 'q03', text: 'rome' },
  ],
  judgments: [{ query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 }],
}

const view = () => demoSetView(SET)

/** A query's answer: `count` cities keyed `<text>-<n>`, in rank order. */
function answer(text: string, count: number): { status: number; body: { items: ResultItem[] } } {
  const items = Array.from({ length: count }, (_, i) => ({
    rank: i + 1,
    probability: 0.987654 - i / 100,
    tuple: [{ id: `${text}-${i + 1}`, class: ['city'], attributes: { name: `${text} city ${i + 1}`, country: 'Somewhere' } }],
  }))
  return { status: 200, body: { items } }
}

const reply = (body: unknown) => ({ url: 'http://127.0.0.1/query', status: 200, contentType: 'application/json', bytes: 1, body, timings: { connectMs: 0, firstByteMs: 1, totalMs: 1 }, cached: false })

/** The held query:run of a query, by the text it asks. */
function runOf(text: string): HeldCall | undefined {
  return fake.held.find((call) => (call.request as { request: { steps: { parameters: { query: string } }[] } }).request.steps[0]!.parameters.query === text)
}

/** The order the dialog shows a query's unrated items in: its top shuffled by set and query, the rated taken out. */
const orderOf = (id: string, text: string, count: number, rated: string[] = []) =>
  seededShuffle(answer(text, count).body.items.map((item) => (item.tuple as { id: string }[])[0]!.id), judgeSeed(SET.name, id)).filter((key) => !rated.includes(key))

const rateCalls = () => fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)

async function mount(queryIds: string[] | null = null, answers: Record<string, unknown> = {}, pairs: NamedPair[] | null = null) {
  const pinia = demoWindow(fake, {
    ...answers,
    'sets:get': SET,
    'sets:rate': view(),
    'eval:list': [],
    'query:cancel': { cancelled: true },
  })
  fake.hold('query:run')
  const [{ default: JudgeDialog }, { useQuerySetsStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/JudgeDialog.vue'),
    import('../../src/renderer/stores/query-sets'),
    import('../../src/renderer/stores/workspace'),
  ])
  const store = useQuerySetsStore(pinia)
  useWorkspaceStore(pinia).show(view())
  await expect.poll(() => store.set?.name).toBe(SET.name)
  const closes: number[] = []
  const screen = await render(JudgeDialog, { props: { queryIds, pairs, open: false, onClose: () => closes.push(1) }, global: { plugins: [pinia] } })
  await screen.rerender({ queryIds, pairs, open: true })
  const dialog = screen.getByRole('dialog', { name: 'Judge results' })
  await expect.element(dialog).toBeVisible()
  return { screen, dialog, store, closes }
}

describe('JudgeDialog', () => {
  it('judges from the keyboard: digits rate through sets:rate and move on, S skips, ← goes back, and the counts follow', async () => {
    const { dialog, closes } = await mount()
    const card = dialog.getByRole('region', { name: 'Item to judge' })
    const progress = dialog.getByRole('progressbar', { name: 'Judging progress' })

    // The first query and one ahead are asked for, on the set's connection, left out of History.
    await expect.poll(() => fake.held.length).toBe(2)
    expect(fake.held.map((call) => call.request)).toEqual([
      expect.objectContaining({ connectionId: 'c1', keepOutOfHistory: true, request: expect.objectContaining({ options: expect.objectContaining({ count: 10 }) }) }),
      expect.objectContaining({ connectionId: 'c1', keepOutOfHistory: true }),
    ])
    expect(new Set(fake.held.map((call) => call.request.requestId)).size).toBe(2)
    expect(runOf('rome')).toBeUndefined()
    await expect.element(card).toHaveTextContent('Fetching the results of “paris”…')

    runOf('paris')!.answer(reply(answer('paris', 4).body))
    const paris = orderOf('q01', 'paris', 4, ['paris-1'])
    expect(paris).toHaveLength(3)
    // Its one rated item counts; lisbon and rome, not fetched yet, count ten each.
    await expect.element(dialog).toHaveTextContent('1 of 24 rated')
    await expect.element(progress).toHaveAttribute('value', '1')
    await expect.element(card).toHaveTextContent(`paris city ${paris[0]!.split('-')[1]}`)
    await expect.element(card).toHaveTextContent(paris[0]!)
    await expect.element(card).toHaveTextContent('Somewhere')
    // Neither the rank nor the probability: nothing of the engine's order.
    expect(card.element().textContent).not.toMatch(/probability|rank|0\.98/)
    await expect.element(dialog.getByRole('listitem').filter({ hasText: 'paris' })).toHaveTextContent('3 left')

    // The keys work from where the focus is on opening.
    expect(dialog.element().contains(document.activeElement)).toBe(true)
    await userEvent.keyboard('2')
    await expect.element(card).toHaveTextContent(paris[1]!)
    await userEvent.keyboard('0')
    await expect.element(card).toHaveTextContent(paris[2]!)
    await expect.element(dialog).toHaveTextContent('3 of 24 rated')
    await userEvent.keyboard('7') // off the scale: nothing
    await userEvent.keyboard('s')
    expect(rateCalls()).toEqual([
      { set: SET.name, query: 'q01', item: paris[0], grade: 2 },
      { set: SET.name, query: 'q01', item: paris[1], grade: 0 },
    ])
    await expect.element(dialog.getByRole('listitem').filter({ hasText: 'paris' })).toHaveTextContent('1 left')

    // lisbon, fetched while paris was judged; rome is asked for now, one ahead.
    await expect.element(card).toHaveTextContent('Fetching the results of “lisbon”…')
    runOf('lisbon')!.answer(reply(answer('lisbon', 2).body))
    await expect.poll(() => runOf('rome')).toBeDefined()
    const lisbon = orderOf('q02', 'lisbon', 2)
    await expect.element(card).toHaveTextContent(lisbon[0]!)
    await expect.element(dialog).toHaveTextContent('3 of 16 rated')
    await userEvent.keyboard('3')
    await expect.element(card).toHaveTextContent(lisbon[1]!)
    // Back to the item rated, its grade shown pressed; → skips on.
    await userEvent.keyboard('{ArrowLeft}')
    await expect.element(card).toHaveTextContent(lisbon[0]!)
    await expect.element(dialog.getByRole('button', { name: '3 Perfect' })).toHaveAttribute('aria-pressed', 'true')
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(card).toHaveTextContent(lisbon[1]!)
    await userEvent.keyboard('1')
    expect(rateCalls().slice(2)).toEqual([
      { set: SET.name, query: 'q02', item: lisbon[0], grade: 3 },
      { set: SET.name, query: 'q02', item: lisbon[1], grade: 1 },
    ])

    // rome fails: its error shows, and the walk passes it.
    runOf('rome')!.refuse({ code: 'http', message: 'The service answered 500: boom' })
    await expect.element(dialog.getByRole('listitem').filter({ hasText: 'rome' })).toHaveTextContent('failed: The service answered 500: boom')
    await expect.element(dialog).toHaveTextContent('5 of 6 rated')
    await expect.element(card).toHaveTextContent('Every item has been shown; 1 skipped item is still unrated.')
    await expect.element(card).toHaveTextContent('1 query could not be fetched')

    // The skipped one, again, and then nothing is left.
    await dialog.getByRole('button', { name: 'Judge the skipped items' }).click()
    await expect.element(card).toHaveTextContent(paris[2]!)
    await userEvent.keyboard('2')
    await expect.element(card).toHaveTextContent('All items in the top 10 of these queries are rated.')
    await expect.element(dialog).toHaveTextContent('6 of 6 rated')
    expect(rateCalls()).toHaveLength(5)
    expect(rateCalls().at(-1)).toEqual({ set: SET.name, query: 'q01', item: paris[2], grade: 2 })

    await userEvent.keyboard('{Escape}')
    await expect.poll(() => closes.length).toBeGreaterThan(0)
  })

  it("asks the person's name once, before any item, keys typed in it rating nothing; then rates under it", async () => {
    // The person has not given their name yet.
    const { dialog } = await mount(null, { 'sets:rater': { name: 'osuser', chosen: false } })
    const name = dialog.getByRole('textbox', { name: 'Your name as a rater' })
    // The OS user name is offered; the field has the focus, so the keys are its own.
    await expect.element(name).toHaveValue('osuser')
    await expect.element(name).toHaveFocus()
    expect(dialog.getByRole('region', { name: 'Item to judge' }).query()).toBeNull()
    await userEvent.clear(name)
    await userEvent.keyboard('Ann 2')
    await expect.element(name).toHaveValue('Ann 2')
    expect(rateCalls()).toEqual([])
    // A name that breaks the rule is said so, naming the field, and kept for fixing.
    await userEvent.clear(name)
    await userEvent.keyboard('adjudication{Enter}')
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Your name: "adjudication" is the name settled grades go under')
    expect(fake.calls.some((call) => call.channel === 'view-prefs:set')).toBe(false)

    fake.answers['sets:rater'] = { name: 'Ann', chosen: true }
    await userEvent.clear(name)
    await userEvent.keyboard('Ann{Enter}')
    await expect.element(dialog).toHaveTextContent('Rating as Ann')
    expect(fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)).toEqual([{ rater: 'Ann' }])
    await expect.poll(() => runOf('paris')).toBeDefined()
    runOf('paris')!.answer(reply(answer('paris', 4).body))
    const card = dialog.getByRole('region', { name: 'Item to judge' })
    // r1's grade of paris-1 is r1's: Ann has rated nothing, so every item of the top is hers to judge.
    await expect.element(dialog).toHaveTextContent('0 of 24 rated')
    await expect.element(card).toHaveTextContent(orderOf('q01', 'paris', 4)[0]!)
    await expect.element(card).toHaveFocus()
    await userEvent.keyboard('1')
    await expect.poll(() => rateCalls().length).toBe(1)
  })

  it('walks only the queries asked for, and shows a query with nothing unrated as all rated', async () => {
    const { dialog } = await mount(['q01'])
    await expect.poll(() => fake.held.length).toBe(1)
    runOf('paris')!.answer(reply(answer('paris', 1).body))
    await expect.element(dialog.getByRole('region', { name: 'Item to judge' })).toHaveTextContent('All items in the top 10 of these queries are rated.')
    await expect.element(dialog).toHaveTextContent('1 of 1 rated')
    await expect.element(dialog.getByRole('listitem')).toHaveTextContent('all rated')
    expect(dialog.getByRole('button', { name: 'Skip' }).element()).toHaveProperty('disabled', true)
  })

  it("Judge next: walks only the queue's pairs, query by query in its order, shuffled within a query, naming an item the results no longer hold by its kept name", async () => {
    const pairs: NamedPair[] = [
      { query: 'q02', item: 'lisbon-2', label: 'Lisbon two' },
      { query: 'q01', item: 'paris-3', label: 'Paris three' },
      { query: 'q02', item: 'lisbon-9', label: 'Lisbon nine' },
    ]
    const { dialog } = await mount(null, {}, pairs)
    const card = dialog.getByRole('region', { name: 'Item to judge' })
    await expect.element(dialog.getByRole('heading', { name: 'Unrated of What to judge next' })).toBeVisible()
    // lisbon first (the queue's first pair is its), paris one ahead; rome, with no pair, is not asked for.
    await expect.poll(() => fake.held.length).toBe(2)
    expect(runOf('rome')).toBeUndefined()
    expect(dialog.getByRole('listitem').elements().map((item) => item.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['“lisbon”2 left', '“paris”1 left'])
    await expect.element(dialog).toHaveTextContent('0 of 3 rated')

    // lisbon's results today: lisbon-9 has dropped out of them; it is still asked about, by the name it was kept with.
    runOf('lisbon')!.answer(reply(answer('lisbon', 4).body))
    const lisbon = seededShuffle(['lisbon-2', 'lisbon-9'], judgeSeed(SET.name, 'q02'))
    const shownAs = (key: string) => (key === 'lisbon-2' ? 'lisbon city 2' : 'Lisbon nine')
    await expect.element(card).toHaveTextContent(shownAs(lisbon[0]!))
    await expect.element(card).toHaveTextContent('Query 1 of 2 · item 1 of 2 to judge')
    await userEvent.keyboard('2')
    await expect.element(card).toHaveTextContent(shownAs(lisbon[1]!))
    await userEvent.keyboard('1')
    runOf('paris')!.answer(reply(answer('paris', 4).body))
    await expect.element(card).toHaveTextContent('paris city 3')
    await userEvent.keyboard('3')
    await expect.element(card).toHaveTextContent('Every item of What to judge next is rated.')
    expect(rateCalls()).toEqual([
      { set: SET.name, query: 'q02', item: lisbon[0], grade: 2 },
      { set: SET.name, query: 'q02', item: lisbon[1], grade: 1 },
      { set: SET.name, query: 'q01', item: 'paris-3', grade: 3 },
    ])
    await expect.element(dialog).toHaveTextContent('3 of 3 rated')
  })

  it('names every control, and fits a 1024×700 window with the grade buttons in view', async () => {
    await page.viewport(1024, 700)
    const { dialog } = await mount()
    runOf('paris')!.answer(reply({ items: answer('paris', 4).body.items.map((item) => ({ ...item, tuple: [{ ...(item.tuple as object[])[0], attributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, `value ${i}`])) }] })) }))
    await expect.element(dialog.getByText('field39')).toBeInTheDocument()
    for (const name of ['0 Poor', '1 Fair', '2 Good', '3 Perfect', 'Skip', 'Back', 'Close']) await expect.element(dialog.getByRole('button', { name, exact: true })).toBeInTheDocument()
    await expect.element(dialog.getByRole('button', { name: '2 Good' })).toHaveAttribute('aria-keyshortcuts', '2')
    const box = dialog.element().getBoundingClientRect()
    expect(box.top).toBeGreaterThanOrEqual(0)
    expect(box.bottom).toBeLessThanOrEqual(700)
    const perfect = dialog.getByRole('button', { name: '3 Perfect' }).element().getBoundingClientRect()
    expect(perfect.bottom).toBeLessThanOrEqual(box.bottom)
    expect(perfect.top).toBeGreaterThanOrEqual(box.top)
    // The item's fields scroll inside the dialog, not the dialog itself.
    const card = dialog.getByRole('region', { name: 'Item to judge' }).element() as HTMLElement
    expect(card.scrollHeight).toBeGreaterThan(card.clientHeight)
    await settle()
  })
})
