import { computed } from 'vue'
import { itemKey } from '../../../shared/compare/item-key'
import { judgeDepthFor } from '../../../shared/relevance/judge-queue'
import { gradeKeysText } from '../../../shared/results/table'
import { visibleControls } from '../../../shared/text/visible-controls'
import { useEvaluationsStore } from '../../stores/evaluations'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useQueryStore } from '../../stores/query'

/**
 * The line above the grid while a set's query is rated: which query of
 * which set the grades go to, how many of the rows that count (the top k
 * the Evaluation view calls judged or not) have one, the keys, and the way
 * out.
 */
export function useRatingBanner(props: { markedMissing?: boolean } = {}) {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()
  const query = useQueryStore()

  const rated = computed(() => sets.ratedQuery)
  const setName = computed(() => sets.set?.name ?? '')
  /** Whose grades the column shows and the keys give: the person's name (asked in the Judge dialog), else the OS user name. */
  const raterName = computed(() => sets.rater?.name ?? '')
  /** Where the rated ranking ran, when it came from a kept evaluation: "Demo, config default, as evaluated (depth 100)". */
  const targetText = computed(() => sets.ratingTarget)
  const depth = computed(() => judgeDepthFor(evaluations.shown, sets.set?.name))
  /** "7 of the top 10 rated", over the grid's first k rows; '' while it has none. */
  const countText = computed(() => {
    const top = query.items.slice(0, depth.value)
    if (top.length === 0) return ''
    const grades = sets.ratingGrades
    const count = top.filter((item) => grades.has(itemKey(item))).length
    return `${count} of the top ${top.length} rated`
  })
  /** A disagreement's Open marks an item: when the answer has come without it, which one, its bidi controls shown. */
  const missingText = computed(() => (props.markedMissing && sets.markedItem !== null ? visibleControls(sets.markedItem) : ''))
  const keysText = computed(() => {
    const digits = gradeKeysText(sets.scale)
    return `${digits ? `${digits} rate the active row, ` : ''}Backspace clears`
  })

  return { rated, setName, raterName, targetText, countText, missingText, keysText, stop: () => sets.stopRating() }
}
