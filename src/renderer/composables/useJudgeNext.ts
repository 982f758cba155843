import { computed, shallowRef, watch } from 'vue'
import type { ReplyOf } from '../../shared/ipc/contract'
import type { JudgePair } from '../../shared/relevance/judge-queue'
import { call, errorMessage } from '../api/explorer-client'
import { useQuerySetsStore } from '../stores/query-sets'

/** How many pairs of the queue the window asks for: a sitting's worth of judging. */
export const JUDGE_NEXT_LIMIT = 200

type JudgeNextChannel = 'eval:judge-next' | 'experiments:judge-next'

/** A (query, item) pair to judge, with the name the kept ranking gave the item: what the Judge dialog walks in its Judge next mode. */
export interface NamedPair extends JudgePair {
  label: string | null
}

/**
 * What to judge next of the kept record shown (an evaluation's intervals, an
 * experiment's verdicts, and the queue), asked of main, which works it out
 * in a worker thread with the set's judgments as they are now: asked again
 * when the record shown or the set changes (a rating made here, in Judge or
 * in the grid). One request at a time: ratings made while one is worked out
 * are weighed together once it answers, never one request a rating.
 */
export function useJudgeNext<C extends JudgeNextChannel>(channel: C, id: () => string | null, limit = JUDGE_NEXT_LIMIT) {
  const sets = useQuerySetsStore()
  const answer = shallowRef<{ id: string; reply: ReplyOf<C> } | null>(null)
  /** Why the last ask failed, and for which record: another record's failure is not shown under the one shown now. */
  const failure = shallowRef<{ id: string; text: string } | null>(null)
  let asking = false
  let again = false

  async function refresh(): Promise<void> {
    if (asking) {
      again = true
      return
    }
    asking = true
    try {
      do {
        again = false
        const asked = id()
        if (!asked || !sets.set) break
        try {
          const reply = (await call(channel, { id: asked, limit } as never)) as ReplyOf<C>
          if (id() === asked) {
            answer.value = { id: asked, reply }
            failure.value = null
          }
        } catch (e) {
          if (id() === asked) failure.value = { id: asked, text: `What to judge next could not be worked out: ${errorMessage(e)}` }
        }
      } while (again)
    } finally {
      asking = false
    }
  }
  watch([id, () => sets.set], () => void refresh(), { immediate: true })

  /** The answer for the record shown now (an older record's is not shown under a newer one). */
  const current = computed(() => (answer.value && answer.value.id === id() ? answer.value.reply : null))
  const error = computed(() => (failure.value && failure.value.id === id() ? failure.value.text : null))
  /** The queue as the Judge dialog walks it. */
  const pairs = computed((): NamedPair[] => (current.value?.queue ?? []).map((entry) => ({ query: entry.query, item: entry.item, label: entry.label })))

  return { current, error, pairs, refresh }
}
