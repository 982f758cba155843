import { computed } from 'vue'
import { problemsForEditor } from '../../../shared/chain/editor-chain'
import { validateRequest } from '../../../shared/query/validate'
import { useChainStore } from '../../stores/chain'
import { useConnectionsStore } from '../../stores/connections'
import { useWorkspaceStore } from '../../stores/workspace'

/**
 * What the results area says before anything ran. A chain that is ready (a
 * saved query chosen, the last session's query back after a restart, a
 * pasted URL) is not a query still to build: it says so, and that Run shows
 * its results, rather than asking to fill in a search step already filled in.
 */
export function useResultsEmptyState() {
  const editor = useChainStore()
  const connections = useConnectionsStore()
  const workspace = useWorkspaceStore()

  /** The chain would run as it stands: every card filled in, nothing validation names. */
  const ready = computed(() => {
    if (!connections.selectedId || editor.steps.length === 0) return false
    const problems = validateRequest(editor.request(editor.responseType, 0), { description: connections.description })
    return problemsForEditor(problems, editor.chain).length === 0
  })

  const title = computed(() => {
    if (!ready.value) return 'Build a query and press Run.'
    return workspace.savedQuery ? `“${workspace.savedQuery}” is ready to run.` : 'Your query is ready to run.'
  })
  const hint = computed(() =>
    ready.value
      ? 'Press Run (Ctrl+Enter) to see its results; nothing runs until you do. Or change the steps on the left first.'
      : 'Fill in the search step on the left, add filter steps or tick facet options, then Run (Ctrl+Enter). Or paste a request URL above.',
  )

  return { ready, title, hint }
}
