import { computed, nextTick, ref } from 'vue'
import { errorMessage } from '../../api/explorer-client'
import { useAgreementStore } from '../../stores/agreement'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useToastsStore } from '../../stores/toasts'

/** The item a row of the disagreements or of a judge's calibration is about: its query (id and text) and the item. */
export interface SettleRow {
  query: string
  item: string
  text: string
}

/**
 * A row's Open and Settle controls: Settle opens the scale's grade buttons,
 * the focus on the first; a grade's button or its digit key settles the item
 * with that grade (`sets:settle` through the agreement store), Escape or
 * Cancel leaves it unsettled; either way the focus goes back to the row's
 * Settle button so the keyboard user stays in the table. Settled, it hands
 * the table the sentence to show ("Settled p1 for “paris”: 3 Perfect.").
 */
export function useSettleControls(props: { row: SettleRow }, settled: (status: string) => void) {
  const agreement = useAgreementStore()
  const sets = useQuerySetsStore()
  const toasts = useToastsStore()

  const open = ref(false)
  const saving = ref(false)
  const group = ref<HTMLElement | null>(null)
  const settleButton = ref<HTMLButtonElement | null>(null)

  const scaleSteps = computed(() => sets.scale)
  const keysText = computed(() => {
    const digits = scaleSteps.value.filter((step) => step.grade <= 9).map((step) => step.grade)
    return digits.length ? `Keys ${digits.join(', ')} settle, Escape leaves it` : 'Escape leaves it'
  })
  const openName = computed(() => `Open “${props.row.text}” in Results, ${props.row.item} marked`)
  const settleName = computed(() => `Settle ${props.row.item} for “${props.row.text}”`)

  async function startSettle(): Promise<void> {
    open.value = true
    await nextTick()
    group.value?.querySelector('button')?.focus()
  }

  /** Closes the grade buttons, the focus back on the row's Settle button. */
  async function cancelSettle(): Promise<void> {
    open.value = false
    await nextTick()
    settleButton.value?.focus()
  }

  async function settle(grade: number): Promise<void> {
    const { query, item, text } = props.row
    saving.value = true
    try {
      await agreement.settle(query, item, grade)
      await cancelSettle()
      settled(`Settled ${item} for “${text}”: ${sets.gradeText(grade)}.`)
    } catch (e) {
      toasts.show(`The grade was not settled: ${errorMessage(e)}`, { tone: 'danger' })
    } finally {
      saving.value = false
    }
  }

  /** The grade buttons' keys: a digit that is a grade of the scale settles with it; Escape closes them. */
  function onSettleKey(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      void cancelSettle()
      return
    }
    if (!/^[0-9]$/.test(event.key) || saving.value) return
    const grade = Number(event.key)
    if (!scaleSteps.value.some((step) => step.grade === grade)) return
    event.preventDefault()
    void settle(grade)
  }

  return { open, saving, group, settleButton, scaleSteps, keysText, openName, settleName, startSettle, cancelSettle, settle, onSettleKey }
}
