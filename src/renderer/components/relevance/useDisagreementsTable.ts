import { storeToRefs } from 'pinia'
import { computed, ref } from 'vue'
import type { Disagreement } from '../../../shared/relevance/disagreements'
import { useTableSort } from '../../composables/useTableSort'
import { useAgreementStore } from '../../stores/agreement'
import { useQuerySetsStore } from '../../stores/query-sets'
import type { FieldOption } from '../controls/field-options'

// A query id has no white space: a space parts it from the item.
const keyOf = (row: Pick<Disagreement, 'query' | 'item'>): string => `${row.query} ${row.item}`
const steps = (count: number): string => `${count} step${count === 1 ? '' : 's'}`

/**
 * The table of disagreements: the items whose raters' grades lie the chosen
 * number of steps apart or more, widest first (or as the Query and Spread
 * headers sort them), each with Open and Settle (SettleControls.vue).
 */
export function useDisagreementsTable() {
  const agreement = useAgreementStore()
  const sets = useQuerySetsStore()
  const { report, steps: chosenSteps, loading } = storeToRefs(agreement)
  const { sort, sortBy, ariaSort } = useTableSort<'query' | 'spread'>()

  /** What the last settle did, said under the table's header. */
  const status = ref('')

  const scaleSteps = computed(() => sets.scale)
  const stepOptions = computed<FieldOption<number>[]>(() =>
    Array.from({ length: Math.max(1, scaleSteps.value.length - 1) }, (_, index) => ({ value: index + 1, label: steps(index + 1) })),
  )
  const stepsValue = computed({ get: () => chosenSteps.value, set: (value: number) => (chosenSteps.value = value) })

  const found = computed(() => report.value?.disagreements ?? null)
  const rows = computed(() => {
    const list = found.value?.rows ?? []
    const { by, descending } = sort.value
    const ordered =
      by === 'set'
        ? list
        : [...list].sort((a, b) =>
            by === 'spread' ? a.spread - b.spread || a.text.localeCompare(b.text) : a.text.toLowerCase().localeCompare(b.text.toLowerCase()) || a.query.localeCompare(b.query) || a.item.localeCompare(b.item),
          )
    const shown = by !== 'set' && descending ? [...ordered].reverse() : ordered
    return shown.map((row) => ({
      key: keyOf(row),
      query: row.query,
      text: row.text || row.query,
      item: row.item,
      /** "ana 0", "ben 3": a rater's grade each, kept whole when the cell wraps. */
      grades: row.grades.map((grade) => `${grade.rater} ${grade.grade}`),
      spread: steps(row.spread),
      settled: row.settled === null ? '' : `settled: ${sets.gradeText(row.settled)}`,
    }))
  })
  const summary = computed(() => {
    const list = found.value
    if (!list) return ''
    if (list.total === 0) return `No item's grades differ by ${steps(list.steps)} or more.`
    const parts = [`${list.total.toLocaleString('en-US')} item${list.total === 1 ? '' : 's'} with grades ${steps(list.steps)} apart or more`]
    if (list.settled > 0) parts.push(`${list.settled.toLocaleString('en-US')} settled`)
    if (list.rows.length < list.total) parts.push(`the ${list.rows.length.toLocaleString('en-US')} widest shown`)
    return `${parts.join(' · ')}.`
  })
  return { loading, found, rows, summary, stepOptions, stepsValue, status, sortBy, ariaSort }
}
