import { storeToRefs } from 'pinia'
import { computed, nextTick, ref } from 'vue'
import type { Disagreement } from '../../../shared/relevance/disagreements'
import { errorMessage } from '../../api/explorer-client'
import { useTableSort } from '../../composables/useTableSort'
import { useAgreementStore } from '../../stores/agreement'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useToastsStore } from '../../stores/toasts'
import type { FieldOption } from '../controls/field-options'

// A query id has no white space: a space parts it from the item.
const keyOf = (row: Pick<Disagreement, 'query' | 'item'>): string => `${row.query} ${row.item}`
const steps = (count: number): string => `${count} step${count === 1 ? '' : 's'}`

/**
 * The table of disagreements: the items whose raters' grades lie the chosen
 * number of steps apart or more, widest first (or as the Query and Spread
 * headers sort them), each with Open (the query in Results) and Settle (an
 * adjudicated grade by keyboard: a digit of the scale, or a grade's button;
 * Escape leaves it unsettled).
 */
export function useDisagreementsTable() {
  const agreement = useAgreementStore()
  const sets = useQuerySetsStore()
  const toasts = useToastsStore()
  const { report, steps: chosenSteps, loading } = storeToRefs(agreement)
  const { sort, sortBy, ariaSort } = useTableSort<'query' | 'spread'>()

  /** The row whose Settle control is open, by key; the one being saved. */
  const settling = ref<string | null>(null)
  const saving = ref<string | null>(null)
  const status = ref('')
  let settleGroup: HTMLElement | null = null
  const setSettleGroup = (element: unknown): void => {
    settleGroup = element instanceof HTMLElement ? element : null
  }

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
  const keysText = computed(() => {
    const digits = scaleSteps.value.filter((step) => step.grade <= 9).map((step) => step.grade)
    return digits.length ? `Keys ${digits.join(', ')} settle, Escape leaves it` : 'Escape leaves it'
  })

  async function startSettle(key: string): Promise<void> {
    settling.value = key
    await nextTick()
    settleGroup?.querySelector('button')?.focus()
  }

  /** Closes the Settle control, the focus back on the row's Settle button. */
  async function cancelSettle(): Promise<void> {
    const key = settling.value
    settling.value = null
    await nextTick()
    if (key !== null) document.querySelector<HTMLElement>(`[data-settle="${CSS.escape(key)}"]`)?.focus()
  }

  async function settle(row: { key: string; query: string; item: string; text: string }, grade: number): Promise<void> {
    saving.value = row.key
    try {
      await agreement.settle(row.query, row.item, grade)
      await cancelSettle()
      status.value = `Settled ${row.item} for “${row.text}”: ${sets.gradeText(grade)}.`
    } catch (e) {
      toasts.show(`The grade was not settled: ${errorMessage(e)}`, { tone: 'danger' })
    } finally {
      saving.value = null
    }
  }

  /** The Settle control's keys: a digit that is a grade of the scale settles with it; Escape closes the control. */
  function onSettleKey(event: KeyboardEvent, row: { key: string; query: string; item: string; text: string }): void {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      void cancelSettle()
      return
    }
    if (!/^[0-9]$/.test(event.key)) return
    const grade = Number(event.key)
    if (!scaleSteps.value.some((step) => step.grade === grade)) return
    event.preventDefault()
    void settle(row, grade)
  }

  return {
    loading, found, rows, summary, keysText, stepOptions, stepsValue, scaleSteps, settling, saving, status,
    sortBy, ariaSort, startSettle, cancelSettle, settle, onSettleKey, setSettleGroup,
  }
}
