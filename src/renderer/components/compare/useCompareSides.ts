import { computed } from 'vue'
import { durationText, totalText } from '../../../shared/compare/figure-text'
import type { CompareSide, Comparison } from '../../../shared/ipc/contract'

/** Each side of a comparison in a line or two: its target, its status or its error in full, its total and duration. */
export function useCompareSides(result: () => Comparison) {
  const describe = (key: 'a' | 'b', side: CompareSide) => ({
    key,
    name: key.toUpperCase(),
    label: side.label,
    failed: side.error !== null,
    status: side.status === null ? 'no answer' : String(side.status),
    error: side.error,
    // The status once: the service's own words often name it already ("The service answered 404: …").
    failedTitle: side.status !== null && !(side.error ?? '').includes(String(side.status)) ? `Failed (${side.status}):` : 'Failed:',
    total: totalText(side.total),
    duration: durationText(side.durationMs),
  })
  const sides = computed(() => [describe('a', result().a), describe('b', result().b)])
  return { sides }
}
