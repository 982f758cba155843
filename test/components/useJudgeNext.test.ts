import { describe, expect, it } from 'vitest'
import { render } from 'vitest-browser-vue'
import { defineComponent, h, ref } from 'vue'
import type { EvaluationJudgeNextReply, ExperimentJudgeNextReply } from '../../src/shared/ipc/relevance-contract'
import { bridgeForFile, demoWindow } from './mount-with-bridge'
import { demoSetView, TWO_QUERY_SET } from './demo-set-view'

/**
 * What to judge next of the kept record shown, as main works it out: asked
 * for the record shown with the limit, once the set is there; asked again
 * when the record shown changes or the set's judgments do (a rating); one
 * request at a time, ratings made meanwhile weighed together in one more; an
 * answer for a record no longer shown never shown under the newer one; a
 * refusal said in words, gone once an answer comes.
 */

const fake = bridgeForFile()

const SET = TWO_QUERY_SET

const view = () => demoSetView(SET)

/** An evaluation's answer whose summary names it, with one pair named by the kept ranking and one it has no name for. */
function reply(summary: string): EvaluationJudgeNextReply {
  const entry = { text: 'rome', ranks: [2], priority: 0.3, effects: [{ metric: 'ndcg@10', other: null, effect: 0.3 }], why: 'rank 2; could move nDCG@10 by about 0.300' }
  return {
    metrics: ['ndcg@10'], queries: [], means: { 'ndcg@10': { current: 0.5, low: 0.4, high: 0.7 } }, counted: 2, unjudged: 2,
    queue: [{ ...entry, query: 'q02', item: 'rome-4', label: 'Rome four' }, { ...entry, query: 'q02', item: 'rome-9', label: null }],
    total: 2, summary,
  }
}

/**
 * A window part on the composable: the answer's summary as a status, the
 * error as an alert, the pairs the Judge dialog would walk as a list.
 */
async function mount<C extends 'eval:judge-next' | 'experiments:judge-next'>(channel: C, shown: string | null, limit?: number) {
  const pinia = demoWindow(fake, { 'sets:get': SET, 'sets:rate': view() })
  fake.hold(channel)
  const [{ useJudgeNext }, { useWorkspaceStore }, { useQuerySetsStore }] = await Promise.all([
    import('../../src/renderer/composables/useJudgeNext'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/query-sets'),
  ])
  useWorkspaceStore(pinia).show(view())
  const record = ref(shown)
  const Part = defineComponent(() => {
    const judgeNext = useJudgeNext(channel, () => record.value, limit)
    return () => h('div', [
      h('p', { role: 'status' }, judgeNext.current.value?.summary ?? 'nothing yet'),
      judgeNext.error.value ? h('p', { role: 'alert' }, judgeNext.error.value) : null,
      h('ul', { 'aria-label': 'Judge next' }, judgeNext.pairs.value.map((pair) => h('li', `${pair.query} ${pair.item} ${pair.label ?? '(no name)'}`))),
    ])
  })
  const screen = await render(Part, { global: { plugins: [pinia] } })
  const sets = useQuerySetsStore(pinia)
  return { screen, record, sets, status: screen.getByRole('status') }
}

const asked = (channel = 'eval:judge-next') => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
const REFUSED = { code: 'worker', message: 'The worker stopped.' }

describe('useJudgeNext', () => {
  it('asks main for the record shown with the limit once the set is there, and gives its summary and the pairs with their names', async () => {
    const { screen, sets, status } = await mount('eval:judge-next', 'e1')
    await expect.poll(() => fake.held.length).toBe(1)
    // Asked once the set is there (its judgments are what the answer weighs), not before and again.
    expect(sets.set?.name).toBe(SET.name)
    expect(asked()).toEqual([{ id: 'e1', limit: 200 }])
    await expect.element(status).toHaveTextContent('nothing yet')

    fake.held[0]!.answer(reply('e1: 2 unjudged pairs could move nDCG@10.'))
    await expect.element(status).toHaveTextContent('e1: 2 unjudged pairs could move nDCG@10.')
    const pairs = screen.getByRole('list', { name: 'Judge next' }).getByRole('listitem')
    await expect.element(pairs.nth(0)).toHaveTextContent('q02 rome-4 Rome four')
    await expect.element(pairs.nth(1)).toHaveTextContent('q02 rome-9 (no name)')
    expect(screen.getByRole('alert').elements()).toHaveLength(0)
    expect(asked()).toHaveLength(1)
  })

  it("asks an experiment's verdicts on its own channel, with the limit given", async () => {
    const { status } = await mount('experiments:judge-next', 'x1', 5)
    await expect.poll(() => fake.held.length).toBe(1)
    expect(asked('experiments:judge-next')).toEqual([{ id: 'x1', limit: 5 }])
    expect(asked('eval:judge-next')).toEqual([])
    const decided: ExperimentJudgeNextReply = { alpha: 0.05, verdicts: [], queue: [], total: 0, summary: 'Nothing left to judge changes a verdict.' }
    fake.held[0]!.answer(decided)
    await expect.element(status).toHaveTextContent('Nothing left to judge changes a verdict.')
  })

  it('asks nothing while no record is shown, then asks for the one shown', async () => {
    const { record, sets, status } = await mount('eval:judge-next', null)
    await expect.poll(() => sets.set?.name).toBe(SET.name)
    expect(asked()).toEqual([])
    record.value = 'e2'
    await expect.poll(() => fake.held.length).toBe(1)
    expect(asked()).toEqual([{ id: 'e2', limit: 200 }])
    fake.held[0]!.answer(reply('e2 answer'))
    await expect.element(status).toHaveTextContent('e2 answer')
  })

  it('asks again after a rating; ratings made while one is worked out go in one more request, not one each', async () => {
    const { sets, status } = await mount('eval:judge-next', 'e1')
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.answer(reply('before the rating'))
    await expect.element(status).toHaveTextContent('before the rating')

    await sets.rate('q02', 'rome-4', 2)
    await expect.poll(() => fake.held.length).toBe(2)
    expect(asked()).toEqual([{ id: 'e1', limit: 200 }, { id: 'e1', limit: 200 }])

    // Two more ratings while main works the second one out: still only the one request out.
    await sets.rate('q02', 'rome-9', 0)
    await sets.rate('q01', 'paris-2', 1)
    expect(fake.calls.filter((call) => call.channel === 'sets:rate')).toHaveLength(3)
    expect(asked()).toHaveLength(2)
    fake.held[1]!.answer(reply('after one rating'))
    await expect.poll(() => fake.held.length).toBe(3)
    await expect.element(status).toHaveTextContent('after one rating')
    fake.held[2]!.answer(reply('after three ratings'))
    await expect.element(status).toHaveTextContent('after three ratings')
    expect(asked()).toHaveLength(3)
  })

  it("drops the answer for a record no longer shown and asks for the newer one; an older record's answer is not shown under a newer one", async () => {
    const { record, status } = await mount('eval:judge-next', 'e1')
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.answer(reply('e1 answer'))
    await expect.element(status).toHaveTextContent('e1 answer')

    // e2 shown, then e3 while e2's is worked out: e1's answer goes at once, e2's is never shown.
    record.value = 'e2'
    await expect.element(status).toHaveTextContent('nothing yet')
    await expect.poll(() => fake.held.length).toBe(2)
    record.value = 'e3'
    expect(asked()).toEqual([{ id: 'e1', limit: 200 }, { id: 'e2', limit: 200 }])
    fake.held[1]!.answer(reply('e2 answer'))
    await expect.poll(() => fake.held.length).toBe(3)
    expect(asked()[2]).toEqual({ id: 'e3', limit: 200 })
    await expect.element(status).toHaveTextContent('nothing yet')
    fake.held[2]!.answer(reply('e3 answer'))
    await expect.element(status).toHaveTextContent('e3 answer')
  })

  it('says a refusal in words, for the record it was asked for only, and clears it once an answer comes', async () => {
    const { record, sets, screen, status } = await mount('eval:judge-next', 'e1')
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.refuse(REFUSED)
    await expect.element(screen.getByRole('alert')).toHaveTextContent('What to judge next could not be worked out: The worker stopped.')

    await sets.rate('q02', 'rome-4', 2)
    await expect.poll(() => fake.held.length).toBe(2)
    fake.held[1]!.answer(reply('worked out after all'))
    await expect.element(status).toHaveTextContent('worked out after all')
    expect(screen.getByRole('alert').elements()).toHaveLength(0)

    // A refusal for a record no longer shown says nothing about the one shown.
    await sets.rate('q02', 'rome-9', 1)
    await expect.poll(() => fake.held.length).toBe(3)
    record.value = 'e2'
    fake.held[2]!.refuse(REFUSED)
    await expect.poll(() => fake.held.length).toBe(4)
    expect(screen.getByRole('alert').elements()).toHaveLength(0)
    fake.held[3]!.answer(reply('e2 answer'))
    await expect.element(status).toHaveTextContent('e2 answer')
    expect(screen.getByRole('alert').elements()).toHaveLength(0)

    // e2 refused, then e3 shown: e2's words go with it, while e3's answer is still on its way.
    await sets.rate('q02', 'rome-2', 3)
    await expect.poll(() => fake.held.length).toBe(5)
    fake.held[4]!.refuse(REFUSED)
    await expect.element(screen.getByRole('alert')).toBeVisible()
    record.value = 'e3'
    await expect.poll(() => fake.held.length).toBe(6)
    expect(screen.getByRole('alert').elements()).toHaveLength(0)
  })
})
