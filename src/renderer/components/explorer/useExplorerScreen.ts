import { storeToRefs } from 'pinia'
import { computed, nextTick, onBeforeUnmount, onMounted, watch } from 'vue'
import { isEndpointStep } from '../../../shared/query/model'
import { useChainStore } from '../../stores/chain'
import { useCompareStore } from '../../stores/compare'
import { useConnectionsStore } from '../../stores/connections'
import { useFacetsStore } from '../../stores/facets'
import { useQueryStore } from '../../stores/query'
import { useToastsStore } from '../../stores/toasts'
import { useWorkspaceStore } from '../../stores/workspace'
import { useWorkbenchStore } from '../../stores/workbench'
import { viewPanelId } from './view-tab'
import { VIEWS, VIEW_SHORTCUTS } from './views'

/** The explorer screen's logic: loading, the first step, re-running on a new configuration, the views, keyboard shortcuts. */
export function useExplorerScreen() {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const query = useQueryStore()
  const toasts = useToastsStore()
  const workspace = useWorkspaceStore()
  const compare = useCompareStore()
  const workbench = useWorkbenchStore()
  const { view } = storeToRefs(workbench)
  useFacetsStore()
  const { description } = storeToRefs(connections)
  const { results: rows, answer } = storeToRefs(query)
  /** Something to show in the results panel: rows, or the answer of a type that is not rows (count, resultitem, options). */
  const results = computed(() => rows.value ?? answer.value)

  watch(
    () => [connections.selectedId, connections.api],
    () => query.reset(),
  )
  // Another configuration ranks differently: show what it returns for the same chain at once.
  watch(
    () => connections.config,
    () => {
      // Not when a loaded query (History, a saved query, the last session's draft) brings its configuration: nothing runs until Run.
      if (results.value && !query.running && !editor.loading) void query.run(0)
    },
  )

  /** A fresh chain starts on the API's search endpoint, so the first thing to do is type. */
  function startChain(): void {
    const first = description.value?.endpoints.find((endpoint) => endpoint.kind === 'search') ?? description.value?.endpoints[0]
    const only = editor.chain.length === 1 ? editor.chain[0]! : null
    if (first && only && isEndpointStep(only.step) && only.step.endpoint === '') {
      editor.updateStep(0, { endpoint: first.name, parameters: Object.fromEntries(first.parameters.map((p) => [p.name, ''])) })
    }
  }
  watch(description, (next) => {
    editor.conformToDescription(next)
    startChain()
  })

  // A query run from a view that does not show rows (Tests, History: e.g. Ctrl+Enter there) brings the rows into view.
  watch(
    () => query.phase,
    (phase) => {
      if (phase === 'running' && view.value !== 'results' && view.value !== 'compare') workbench.select('results')
    },
  )

  /** Ctrl/Cmd+1…6: the view at that place; null for a place kept for views to come; undefined for any other key. */
  function viewShortcut(event: KeyboardEvent): string | null | undefined {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return undefined
    const place = Number(event.key)
    if (!Number.isInteger(place) || place < 1 || place > VIEW_SHORTCUTS) return undefined
    return VIEWS[place - 1]?.id ?? null
  }

  /** The skip link: the Results view, with the focus at its start so the next Tab reaches its first control. */
  function skipToResults(): void {
    workbench.select('results')
    void nextTick(() => document.getElementById(viewPanelId('results'))?.focus())
  }

  function onKeydown(event: KeyboardEvent): void {
    const shortcut = viewShortcut(event)
    if (shortcut !== undefined) {
      // Never the browser's own Ctrl+digit (its tabs); not over a dialog, which keeps the focus.
      event.preventDefault()
      if (shortcut && !document.querySelector('dialog[open]')) workbench.select(shortcut)
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      // In the compare view the chain runs on both targets.
      if (compare.open) void compare.run()
      else if (!query.running) void query.run()
    } else if ((event.key === 's' || event.key === 'S') && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      // Save workspace, never the browser's "save page"; not over a dialog, which has its own buttons.
      event.preventDefault()
      if (workspace.started && !document.querySelector('dialog[open]')) void workspace.save()
    } else if (event.key === 'Escape' && compare.running && !document.querySelector('dialog[open]')) {
      void compare.cancel()
    } else if (event.key === 'Escape' && query.running && !document.querySelector('dialog[open]')) {
      void query.cancel()
    }
  }

  onMounted(async () => {
    window.addEventListener('keydown', onKeydown)
    await connections.load()
    // The open workspace and the last session's draft, once the connections it may name are known.
    await workspace.start()
    // What the main process found at start (e.g. a settings file set aside) is said once, and stays until dismissed.
    for (const notice of connections.info?.notices ?? []) toasts.show(notice, { tone: 'danger' })
    startChain()
    workbench.restore(VIEWS.map((each) => each.id))
  })
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))

  return { connections, views: VIEWS, view, skipToResults }
}
