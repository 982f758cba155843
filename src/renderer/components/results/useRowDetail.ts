import { computed } from 'vue'
import { useModalDialog } from '../../composables/useModalDialog'
import type { ResultItem } from '../../../shared/responses'
import { detailEntries } from '../../../shared/results/detail'
import { useCopyFeedback } from '../../clipboard/copy-text'

/** The row detail: every field of one result, nested objects opened, each copyable; a modal dialog. */
export function useRowDetail(item: () => ResultItem | null, close: () => void) {
  const { dialog } = useModalDialog({ open: () => item() !== null, focus: null })
  const entries = computed(() => {
    const current = item()
    return current ? detailEntries(current) : []
  })
  const { message: copied, copy } = useCopyFeedback()

  const copyEntry = (label: string, text: string) => copy(text, label)
  const copyJson = () => {
    const current = item()
    if (current) void copy(JSON.stringify(current, null, 2), `row ${current.rank} as JSON`)
  }

  return { dialog, entries, copied, copyEntry, copyJson, onClose: close }
}
