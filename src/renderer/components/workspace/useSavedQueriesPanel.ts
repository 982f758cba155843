import { storeToRefs } from 'pinia'
import { computed, onBeforeUnmount, onMounted, ref, shallowRef } from 'vue'
import type { SavedQuery } from '../../../shared/workspace/workspace-file'
import { suggestQueryName } from '../../../shared/workspace/query-name'
import { errorMessage } from '../../api/explorer-client'
import { useConnectionsStore } from '../../stores/connections'
import { useToastsStore } from '../../stores/toasts'
import { useWorkspaceStore } from '../../stores/workspace'
import { useRememberedFold } from '../../composables/useRememberedFold'
import { useQuestion } from './useChoiceDialog'
import type { QueryNameRequest } from './useQueryNameDialog'

/** At this height and below the chain needs the room: the list starts folded. */
export const SHORT_QUERY = '(max-height: 760px)'
interface Naming extends QueryNameRequest {
  finish: (saved: boolean) => void
}

interface Binding {
  ids: string[]
  finish: (resolved: boolean) => void
}

/**
 * The "Saved queries" side list: the open workspace and its queries, and
 * every question asked on the way (a name, unsaved changes, a connection the
 * app does not have). The workspace store talks to main; this asks the user.
 */
export function useSavedQueriesPanel() {
  const store = useWorkspaceStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const { view, queries, savedQuery, selected, queryDirty, error, started } = storeToRefs(store)

  // Folded or unfolded, remembered apart for short and tall windows.
  const { open: expanded, toggle } = useRememberedFold({ query: SHORT_QUERY, storageKey: 'query-explorer.saved-queries', modes: ['short', 'tall'] })

  const { question, ask } = useQuestion()
  const naming = shallowRef<Naming | null>(null)
  const binding = shallowRef<Binding | null>(null)
  const fileInput = ref<HTMLInputElement | null>(null)
  const ready = computed(() => started.value && view.value !== null)

  function askName(options: QueryNameRequest): Promise<boolean> {
    return new Promise((resolve) => {
      naming.value = {
        ...options,
        finish: (saved) => {
          naming.value = null
          resolve(saved)
        },
      }
    })
  }

  /** Asks for the file connections in `ids` that run on nothing here; true when all run somewhere now. */
  function connect(ids: string[]): Promise<boolean> {
    return new Promise((resolve) => {
      binding.value = {
        ids,
        finish: (resolved) => {
          binding.value = null
          resolve(resolved)
        },
      }
    })
  }

  const suggestion = () => suggestQueryName(store.editorRequest.steps, queries.value.map((q) => q.name))

  function saved(name: string, verb: string): void {
    toasts.show(`${verb} “${name}”. Save the workspace (Ctrl+S) to keep it in the file.`, { key: 'workspace-query' })
  }

  /** Save query: updates the saved query the editor started from, or asks a name for a new one. */
  async function saveQuery(): Promise<boolean> {
    const current = selected.value
    if (!current) return saveAsNew()
    try {
      await store.saveQuery(current.name, { update: current.name })
      saved(current.name, 'Saved')
      return true
    } catch (e) {
      toasts.show(`“${current.name}” was not saved: ${errorMessage(e)}`, { tone: 'danger' })
      return false
    }
  }

  function saveAsNew(): Promise<boolean> {
    const replacing = selected.value !== null
    return askName({
      title: replacing ? 'Save as new query' : 'Save query',
      intro: replacing ? `The editor's query is added beside “${selected.value!.name}”, which stays as it was saved.` : undefined,
      initial: suggestion(),
      submitLabel: 'Save',
      canReplace: true,
      save: async (name, replace) => {
        await store.saveQuery(name, { replace })
        saved(name, replace ? 'Replaced' : 'Saved')
      },
    })
  }

  /** The editor's changes to the saved query it started from: kept (saved), thrown away, or the user stays. */
  async function settleQueryChanges(): Promise<boolean> {
    const current = selected.value
    if (!current || !queryDirty.value) return true
    const answer = await ask(`Discard changes to “${current.name}”?`, 'The editor holds changes to this saved query that are not saved yet.', [
      { value: 'discard', label: 'Discard', tone: 'danger' },
      { value: 'save', label: 'Save query', tone: 'primary' },
    ])
    if (answer === 'save') return saveQuery()
    return answer === 'discard'
  }

  /** Loads a saved query into the editor (connection, chain, options); runs nothing. */
  async function select(name: string): Promise<void> {
    if (!(await settleQueryChanges())) return
    if (store.connectionOf(name) === null) {
      const fileConnection = store.bindingOf(name)
      if (!fileConnection || !(await connect([fileConnection.fileConnectionId]))) return
    }
    await store.loadSaved(name)
  }

  /** The workspace's unsaved changes, before another replaces it: saved, thrown away, or the user stays. */
  async function settleWorkspaceChanges(): Promise<boolean> {
    const current = view.value
    if (!current?.dirty) return true
    const answer = await ask(`Save changes to “${current.name}”?`, 'Its saved queries changed since it was last saved. Without saving, those changes are lost.', [
      { value: 'discard', label: 'Discard', tone: 'danger' },
      { value: 'save', label: 'Save workspace', tone: 'primary' },
    ])
    if (answer === 'save') return (await store.save()) === 'saved'
    return answer === 'discard'
  }

  async function afterOpen(ok: boolean): Promise<void> {
    const current = view.value
    if (!ok || !current) return
    const n = current.queries.length
    toasts.show(`Opened “${current.name}”: ${n === 1 ? '1 saved query' : `${n} saved queries`}.`, { key: 'workspace-open' })
    if (!expanded.value) toggle()
    const unbound = store.unbound.map((b) => b.fileConnectionId)
    if (unbound.length > 0) await connect(unbound)
  }

  async function newWorkspace(): Promise<void> {
    if (!(await settleWorkspaceChanges())) return
    if (await store.newWorkspace()) toasts.show('A new, empty workspace is open. The editor keeps its query.', { key: 'workspace-open' })
  }

  /** Electron: the native dialog. Browser host: Chromium's file picker, whose file is read here and sent to main. */
  async function openFile(): Promise<void> {
    if (!(await settleWorkspaceChanges())) return
    if (store.host === 'electron') await afterOpen(await store.open())
    else fileInput.value?.click()
  }

  async function openRecent(id: string): Promise<void> {
    if (!(await settleWorkspaceChanges())) return
    await afterOpen(await store.open(id))
  }

  async function onFileChosen(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement
    const file = input.files?.[0]
    // The same file picked again must fire another change.
    input.value = ''
    if (file) await afterOpen(await store.importFile(file))
  }

  async function saveWorkspace(): Promise<void> {
    await store.save()
  }

  async function rename(query: SavedQuery): Promise<void> {
    await askName({
      title: `Rename “${query.name}”`,
      initial: query.name,
      submitLabel: 'Rename',
      save: async (name) => {
        if (name !== query.name) await store.renameQuery(query.name, name)
      },
    })
  }

  async function duplicate(query: SavedQuery): Promise<void> {
    const name = await store.duplicateQuery(query.name)
    if (name) toasts.show(`Duplicated “${query.name}” as “${name}”.`, { key: 'workspace-query' })
  }

  async function remove(query: SavedQuery): Promise<void> {
    const answer = await ask(`Delete “${query.name}”?`, 'The query is taken out of the workspace; the file keeps it until the workspace is saved.', [
      { value: 'delete', label: 'Delete', tone: 'danger' },
    ])
    if (answer === 'delete' && (await store.deleteQuery(query.name))) toasts.show(`Deleted “${query.name}”.`, { key: 'workspace-query' })
  }

  /** What a saved query runs on here, for its line in the list. */
  function runsOn(query: SavedQuery): string {
    const id = store.connectionOf(query.name)
    if (id === null) return `Not connected: ${store.bindingOf(query.name)?.connection.name ?? query.connection}`
    return `on ${connections.connections.find((c) => c.id === id)?.name ?? id}`
  }

  const isSelected = (query: SavedQuery) => query.name === savedQuery.value
  const isUnbound = (query: SavedQuery) => store.connectionOf(query.name) === null
  /** Where the workspace is, for the heading's tooltip. */
  const where = computed(() => {
    const current = view.value
    if (!current?.fileName) return 'Not saved to a file yet'
    return current.folder ? `${current.folder}/${current.fileName}` : current.fileName
  })

  /**
   * Browser host: a reload or a closed tab with unsaved workspace changes asks
   * first (the session, changes included, is kept either way). Not in
   * Electron, where a cancelled unload would silently keep the window from
   * closing.
   */
  function onBeforeUnload(event: BeforeUnloadEvent): void {
    store.flushDraft()
    if (!view.value?.dirty || store.host === 'electron') return
    event.preventDefault()
    event.returnValue = ''
  }
  const roving = useRovingList(() => queries.value.length, () => queries.value.findIndex((query) => isSelected(query)))

  onMounted(() => window.addEventListener('beforeunload', onBeforeUnload))
  onBeforeUnmount(() => {
    window.removeEventListener('beforeunload', onBeforeUnload)
  })

  return {
    view, queries, savedQuery, selected, queryDirty, error, ready, expanded, toggle, where,
    question, naming, binding, fileInput,
    saveQuery, saveAsNew, select, newWorkspace, openFile, openRecent, onFileChosen, saveWorkspace, rename, duplicate, remove,
    runsOn, isSelected, isUnbound, roving,
  }
}

/** Per query: its name (loads it), then Rename, Duplicate and Delete. */
export const QUERY_CONTROLS = 4

/**
 * The list of saved queries as one Tab stop (a roving tabindex): Up and Down
 * go from query to query, Left and Right between a query and its actions,
 * Home and End to the first and last query; Enter or Space presses the
 * control. The stop starts on the selected query and stays where the user
 * last was.
 */
function useRovingList(count: () => number, selectedRow: () => number) {
  const at = ref<{ row: number; col: number } | null>(null)
  const current = computed(() => {
    const rows = count()
    const chosen = at.value ?? { row: Math.max(0, selectedRow()), col: 0 }
    return { row: Math.min(chosen.row, Math.max(0, rows - 1)), col: chosen.col }
  })

  const tabindex = (row: number, col: number) => (row === current.value.row && col === current.value.col ? 0 : -1)
  const place = (row: number, col: number) => ({ 'data-row': row, 'data-col': col, tabindex: tabindex(row, col) })

  function onFocusin(event: FocusEvent): void {
    const element = event.target as HTMLElement
    const row = Number(element.dataset.row)
    const col = Number(element.dataset.col)
    if (Number.isInteger(row) && Number.isInteger(col)) at.value = { row, col }
  }

  function onKeydown(event: KeyboardEvent): void {
    const rows = count()
    if (rows === 0 || event.altKey || event.ctrlKey || event.metaKey) return
    const { row, col } = current.value
    const next =
      event.key === 'ArrowDown' ? { row: Math.min(rows - 1, row + 1), col }
      : event.key === 'ArrowUp' ? { row: Math.max(0, row - 1), col }
      : event.key === 'ArrowRight' ? { row, col: Math.min(QUERY_CONTROLS - 1, col + 1) }
      : event.key === 'ArrowLeft' ? { row, col: Math.max(0, col - 1) }
      : event.key === 'Home' ? { row: 0, col: 0 }
      : event.key === 'End' ? { row: rows - 1, col: 0 }
      : null
    if (!next) return
    event.preventDefault()
    at.value = next
    const list = event.currentTarget as HTMLElement
    list.querySelector<HTMLElement>(`[data-row="${next.row}"][data-col="${next.col}"]`)?.focus()
  }

  return { place, onFocusin, onKeydown }
}
