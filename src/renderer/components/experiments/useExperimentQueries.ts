import { storeToRefs } from 'pinia'
import { computed, ref } from 'vue'
import type { QueryDelta } from '../../../shared/experiments/experiment-record'
import { useTableSort } from '../../composables/useTableSort'
import { useExperimentsStore } from '../../stores/experiments'
import { figure, sideLetter, signed } from './experiment-format'

type SortBy = 'query' | 'baseline' | 'other' | 'delta'

/** What a delta rests on, in words, when unjudged results could still change it; null when nothing could, or there is no win or loss. */
export function restsOnText(entry: Pick<QueryDelta, 'delta' | 'unjudged'>): string | null {
  if (entry.unjudged === 0 || entry.delta === null || entry.delta === 0) return null
  return `this ${entry.delta > 0 ? 'win' : 'loss'} rests on ${entry.unjudged} unjudged result${entry.unjudged === 1 ? '' : 's'}`
}

/**
 * The table of queries for the metric and side picked: each query's figure
 * on A and on the other side, the delta, sortable by each; the unjudged
 * results a win or a loss rests on (judge them from here), a query opened
 * in the compare view, and the failed queries of each side.
 */
export function useExperimentQueries() {
  const experiments = useExperimentsStore()
  const { shown, deltas, other } = storeToRefs(experiments)
  const { sort, sortBy, ariaSort } = useTableSort<SortBy>()
  /** The queries the Judge dialog walks, while it is open. */
  const judging = ref<string[] | false>(false)

  const otherLetter = computed(() => sideLetter(other.value + 1))
  const rows = computed(() => {
    const list = deltas.value.map((entry) => ({
      ...entry,
      baselineText: entry.failed === 'baseline' || entry.failed === 'both' ? 'failed' : figure(entry.baseline),
      otherText: entry.failed === 'other' || entry.failed === 'both' ? 'failed' : figure(entry.other),
      deltaText: signed(entry.delta),
      direction: entry.delta === null ? 'none' : entry.delta > 0 ? 'win' : entry.delta < 0 ? 'loss' : 'tie',
      restsOn: restsOnText(entry),
    }))
    const { by, descending } = sort.value
    if (by === 'set') return list
    const key = (entry: (typeof list)[number]): string | number | null => (by === 'query' ? entry.text.toLowerCase() : by === 'baseline' ? entry.baseline : by === 'other' ? entry.other : entry.delta)
    const ordered = [...list].sort((a, b) => {
      const x = key(a)
      const y = key(b)
      // Queries without the figure go last either way: they have nothing to rank by.
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
      const order = x < y ? -1 : x > y ? 1 : 0
      return descending ? -order : order
    })
    return ordered
  })

  /** Failed queries by side, A first: a query that failed is never dropped silently. */
  const failedBySide = computed(() => {
    const record = shown.value
    if (!record) return []
    return record.sides
      .map((side, index) => ({
        letter: sideLetter(index),
        label: side.label,
        queries: record.stats.failed.filter((entry) => entry.side === index - 1),
      }))
      .filter((group) => group.queries.length > 0)
  })

  function judge(queryId: string): void {
    judging.value = [queryId]
  }
  function compare(queryId: string): void {
    void experiments.compareQuery(queryId)
  }

  return { shown, otherLetter, rows, sortBy, ariaSort, failedBySide, judging, judge, compare }
}
