import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { useElapsedSeconds } from '../../composables/useElapsedSeconds'
import { useChainStore } from '../../stores/chain'
import { useCompareStore } from '../../stores/compare'
import { useQueryStore } from '../../stores/query'

/** Run and Cancel, and how long the query has been running (shown after a moment, so fast runs do not flicker). */
export function useRunControls() {
  const editor = useChainStore()
  const query = useQueryStore()
  const compare = useCompareStore()
  const { running, startedAt, phase, progress, lastReply } = storeToRefs(query)

  const elapsed = useElapsedSeconds(running, startedAt)
  const label = computed(() => {
    if (phase.value === 'loading-more' && progress.value) {
      return `Loading rows: ${progress.value.loaded.toLocaleString('en-US')} of ${progress.value.target.toLocaleString('en-US')}`
    }
    return elapsed.value >= 0.3 ? `Running… ${elapsed.value.toFixed(1)} s` : 'Running…'
  })
  const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform)

  /** The app shares identical answers for 30 s (the Query API is stateless); this asks the service itself again. */
  const runAgain = () => query.run(editor.offset, true, true)
  const canRunAgain = computed(() => lastReply.value !== null)

  return {
    query, running, label, shortcut: isMac ? '⌘ ↵' : 'Ctrl ↵', canRunAgain,
    // In the compare view Run runs the comparison, as Ctrl/Cmd+Enter does there.
    run: () => (compare.open ? void compare.run() : query.run()),
    runAgain, cancel: () => query.cancel(),
  }
}
