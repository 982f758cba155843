import { shallowRef, watch, type Ref } from 'vue'
import { errorMessage } from '../api/explorer-client'
import { latestCall } from '../stores/latest-call'

export interface KeptRecordsOptions<Summary, Kept> {
  /** The set whose records are listed; the list follows it. */
  chosen: () => string | null
  list: (set: string) => Promise<Summary[]>
  get: (id: string) => Promise<Kept>
  /** Where a failure is told. */
  error: Ref<string | null>
  /** The words before the reason when a record could not be read: "That evaluation could not be read". */
  unreadable: string
  /** After a record was shown. */
  onShown?: () => void
}

/**
 * The kept records of the chosen set, newest first, and the one shown: the
 * list is read again when the set changes (the latest call's answer wins),
 * and the newest is shown when the one shown is of another set.
 */
export function useKeptRecords<Summary extends { id: string }, Kept extends { set: string }>(options: KeptRecordsOptions<Summary, Kept>) {
  const { error } = options
  const shown = shallowRef<Kept | null>(null)
  const kept = shallowRef<Summary[]>([])
  const latest = latestCall()

  async function loadKept(): Promise<void> {
    const name = options.chosen()
    const isLatest = latest.start()
    try {
      const list = name ? await options.list(name) : []
      if (!isLatest()) return
      kept.value = list
      if (shown.value?.set !== name) shown.value = null
      if (!shown.value && list[0]) await show(list[0].id)
    } catch (e) {
      if (isLatest()) error.value = errorMessage(e)
    }
  }
  watch(options.chosen, () => void loadKept(), { immediate: true })

  async function show(id: string): Promise<void> {
    try {
      shown.value = await options.get(id)
      options.onShown?.()
    } catch (e) {
      error.value = `${options.unreadable}: ${errorMessage(e)}`
    }
  }

  return { shown, kept, loadKept, show }
}
