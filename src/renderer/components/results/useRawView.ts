import { computed } from 'vue'
import { formatBytes } from '../../../shared/byte-size'
import type { QueryReply } from '../../../shared/ipc/contract'
import { useCopyFeedback } from '../../clipboard/copy-text'

/** Past this size the raw text is cut: a browser paints a few hundred kilobytes of <pre> comfortably, not megabytes. */
const MAX_SHOWN = 400_000

/** The raw view: the answer as the service sent it, formatted, with its size and timings. */
export function useRawView(reply: () => QueryReply | null) {
  const text = computed(() => {
    const current = reply()
    if (!current) return ''
    return typeof current.body === 'string' ? current.body : JSON.stringify(current.body, null, 2)
  })
  const shown = computed(() => (text.value.length > MAX_SHOWN ? `${text.value.slice(0, MAX_SHOWN)}\n…` : text.value))
  const cut = computed(() => text.value.length > MAX_SHOWN)
  const facts = computed(() => {
    const current = reply()
    if (!current) return []
    const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} ms`)
    return [
      { label: 'Status', value: String(current.status) },
      { label: 'Type', value: current.contentType || '—' },
      { label: 'Size', value: formatBytes(current.bytes) },
      { label: 'Connect', value: ms(current.timings.connectMs) },
      { label: 'First byte', value: ms(current.timings.firstByteMs) },
      { label: 'Total', value: ms(current.timings.totalMs) },
      { label: 'Cache', value: current.cached ? 'from the short-lived cache' : 'fresh' },
    ]
  })
  const { message: copied, copy } = useCopyFeedback()
  const copyAll = () => copy(text.value, 'the response')
  return { text, shown, cut, facts, copied, copyAll }
}
