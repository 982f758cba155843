import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Draft, RecentWorkspace, WorkspaceBinding, WorkspaceView } from '../../shared/ipc/contract'
import type { FacetDeclaration } from '../../shared/query/facet-declaration'
import type { QueryRequest } from '../../shared/query/model'
import type { SavedQuery } from '../../shared/workspace/workspace-file'
import { sameQuery } from '../../shared/workspace/query-equality'
import { call, errorMessage, ExplorerClientError } from '../api/explorer-client'
import { uploadFile } from '../api/uploads'
import { useConnectionsStore } from './connections'
import { useChainStore } from './chain'
import { useToastsStore } from './toasts'
import { offerDownload } from '../files/offer-download'

/** The draft is sent this long after the last edit: one message per pause in typing, not per key. */
export const DRAFT_DELAY_MS = 500

/** What "Save workspace" did: saved (in place or as a download), cancelled in the dialog, or failed (the toast says why). */
export type SaveOutcome = 'saved' | 'cancelled' | 'failed'

/** The question "Save workspace" asks first in the browser host when the workspace has no name yet: the dialog answers it. */
export interface WorkspaceNaming {
  initial: string
  /** Saves under the name typed; what main refuses is thrown for the dialog to show. */
  save: (name: string) => Promise<void>
  /** The dialog closed, saved or cancelled. */
  finish: () => void
}

/**
 * The open workspace as the main process holds it (main owns the document
 * and the file; this store shows the view each call sends back and never
 * holds a path), the saved query the editor started from, and the editor's
 * draft, sent to main a moment after each edit so the session survives a
 * restart.
 */
export const useWorkspaceStore = defineStore('workspace', () => {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const toasts = useToastsStore()

  const view = shallowRef<WorkspaceView | null>(null)
  const recent = ref<RecentWorkspace[]>([])
  /** The saved query the editor started from, by name; null for a query not saved yet. */
  const savedQuery = ref<string | null>(null)
  /** Set once the last session's draft is back in the editor: drafts are sent from then on, never the empty editor of a start. */
  const started = ref(false)
  /** Why the workspace is not available (main could not give it), or null. */
  const error = ref<string | null>(null)
  /** Said once per page: why a browser-host save is a download. */
  let downloadExplained = false
  /** 'moved' bindings already noted since this workspace was opened. */
  const movedNoted = new Set<string>()

  const host = computed(() => connections.info?.host ?? 'browser')
  /** The editor's query as it would be saved: the page looked at (offset) is not part of it. */
  const editorRequest = computed<QueryRequest>(() => editor.request(editor.responseType, 0, Number(editor.count), true))
  const queries = computed(() => view.value?.queries ?? [])
  const selected = computed<SavedQuery | null>(() => queries.value.find((q) => q.name === savedQuery.value) ?? null)

  function bindingOf(name: string): WorkspaceBinding | null {
    const saved = queries.value.find((q) => q.name === name)
    return saved ? (view.value?.bindings.find((b) => b.fileConnectionId === saved.connection) ?? null) : null
  }

  /** The app connection a saved query runs on, or null while its file connection is not bound to one. */
  function connectionOf(name: string): string | null {
    return bindingOf(name)?.connectionId ?? null
  }

  /** The editor's query or connection differs from the saved query it started from. */
  const queryDirty = computed(() => {
    const saved = selected.value
    if (!saved) return false
    const bound = connectionOf(saved.name)
    if (bound !== null && bound !== connections.selectedId) return true
    return !sameQuery(editorRequest.value, saved.request)
  })

  /**
   * The facets declared by hand for the connection in use: those of the file
   * connection bound to it. Kept per connection (one API each), as the file does.
   */
  const declaredFacets = computed<FacetDeclaration[]>(() => {
    const id = connections.selectedId
    return view.value?.bindings.find((b) => b.connectionId !== null && b.connectionId === id)?.connection.facets ?? []
  })

  /**
   * Replaces the declared facets of the connection in use; main keeps them in
   * the open workspace (marked unsaved) and describes the connection in the
   * file first when it is not there yet. Refusals are thrown for the form to show.
   */
  async function setDeclaredFacets(facets: FacetDeclaration[]): Promise<void> {
    const connectionId = connections.selectedId
    if (!connectionId) throw new ExplorerClientError({ code: 'validation', message: 'Choose a connection first: facets are declared for its API.' })
    show(await call('workspace:set-facets', { connectionId, facets }))
  }

  /** File connections that run on nothing here yet. */
  const unbound = computed(() => view.value?.bindings.filter((b) => b.connectionId === null) ?? [])

  function show(next: WorkspaceView): void {
    view.value = next
    if (savedQuery.value !== null && !next.queries.some((q) => q.name === savedQuery.value)) savedQuery.value = null
  }

  /** Counts the workspaces opened or started anew (not saves): what was shown of the one before is stale. */
  const openings = ref(0)

  function opened(next: WorkspaceView): void {
    openings.value++
    movedNoted.clear()
    savedQuery.value = null
    show(next)
  }

  function fail(what: string, e: unknown): void {
    toasts.show(`${what}: ${errorMessage(e)}`, { tone: 'danger' })
  }

  /**
   * The workspace and draft the last session left, once the connections are
   * loaded: the draft goes back into the editor (chain, response type,
   * options, connection if it still exists) and nothing runs.
   */
  async function start(): Promise<void> {
    try {
      const current = await call('workspace:current', {})
      show(current.workspace)
      // Not over what the user entered while the session was on its way (a pasted URL, a typed value).
      if (current.draft && editor.pristine) await restore(current.draft)
      error.value = null
      started.value = true
    } catch (e) {
      error.value = errorMessage(e)
      fail('The saved queries could not be loaded', e)
    }
  }

  /**
   * The draft's connection is taken when the app has no connection chosen
   * last (the two agree otherwise, and a choice made in the draft's last
   * half-second is the newer). A draft with no step holds nothing to take
   * back: the editor starts as on a first start.
   */
  async function restore(draft: Draft): Promise<void> {
    const id = draft.connectionId
    const exists = (connectionId: string | null | undefined) => connections.connections.some((c) => c.id === connectionId)
    if (id && id !== connections.selectedId && exists(id) && !exists(connections.info?.lastConnectionId)) await connections.select(id)
    if (draft.request.steps.length > 0) await editor.loadRequest(draft.request)
    savedQuery.value = draft.savedQuery !== null && queries.value.some((q) => q.name === draft.savedQuery) ? draft.savedQuery : null
    lastDraft = draftKey.value
  }

  // The draft: sent a moment after the editor's request, connection or saved query changes.
  const draft = computed<Draft>(() => ({ connectionId: connections.selectedId, request: editorRequest.value, savedQuery: savedQuery.value }))
  const draftKey = computed(() => JSON.stringify(draft.value))
  let lastDraft = ''
  let draftTimer: ReturnType<typeof setTimeout> | null = null

  async function sendDraft(): Promise<void> {
    draftTimer = null
    const key = draftKey.value
    if (!started.value || key === lastDraft) return
    lastDraft = key
    // Keeping the draft is a convenience: a failure here must not get in the way of the work itself.
    await call('workspace:draft', { draft: draft.value }).catch(() => {
      lastDraft = ''
    })
  }

  watch(draftKey, () => {
    if (!started.value) return
    if (draftTimer) clearTimeout(draftTimer)
    draftTimer = setTimeout(() => void sendDraft(), DRAFT_DELAY_MS)
  })

  /** A draft still waiting for its moment is sent now (the page is going away). */
  function flushDraft(): void {
    if (!draftTimer) return
    clearTimeout(draftTimer)
    void sendDraft()
  }

  /**
   * Puts a saved query into the editor: its connection (chosen as the user
   * would, so the bar shows it), then its chain, response type and options.
   * Runs nothing. Its connection must be bound.
   */
  async function loadSaved(name: string): Promise<boolean> {
    const saved = queries.value.find((q) => q.name === name)
    const binding = bindingOf(name)
    if (!saved || !binding?.connectionId) return false
    if (binding.connectionId !== connections.selectedId) await connections.choose(binding.connectionId)
    await editor.loadRequest(saved.request)
    savedQuery.value = name
    if (binding.how === 'moved' && !movedNoted.has(binding.fileConnectionId)) {
      movedNoted.add(binding.fileConnectionId)
      const here = connections.connections.find((c) => c.id === binding.connectionId)?.name ?? binding.connection.name
      toasts.show(`Runs on ${here} (the file's ${binding.connection.name} was at another address).`, { key: 'workspace-moved' })
    }
    return true
  }

  /**
   * Adds the editor's query under `name`, or updates the saved query it
   * started from (`update`). Errors (a name taken) are thrown for the dialog to show.
   */
  async function saveQuery(name: string, options: { update?: string; replace?: boolean } = {}): Promise<void> {
    const connectionId = connections.selectedId
    if (!connectionId) throw new ExplorerClientError({ code: 'validation', message: 'Choose a connection first: a saved query runs on one.' })
    const next = await call('workspace:save-query', {
      name,
      connectionId,
      request: editorRequest.value,
      ...(options.update ? { previousName: options.update } : {}),
      ...(options.replace ? { replace: true } : {}),
    })
    show(next)
    savedQuery.value = name
  }

  async function renameQuery(name: string, newName: string): Promise<void> {
    const next = await call('workspace:rename-query', { name, newName })
    if (savedQuery.value === name) savedQuery.value = newName
    show(next)
  }

  async function duplicateQuery(name: string): Promise<string | null> {
    try {
      const reply = await call('workspace:duplicate-query', { name })
      show(reply.workspace)
      return reply.name
    } catch (e) {
      fail(`"${name}" was not duplicated`, e)
      return null
    }
  }

  async function deleteQuery(name: string): Promise<boolean> {
    try {
      show(await call('workspace:delete-query', { name }))
      return true
    } catch (e) {
      fail(`"${name}" was not deleted`, e)
      return false
    }
  }

  async function newWorkspace(): Promise<boolean> {
    try {
      opened(await call('workspace:new', {}))
      return true
    } catch (e) {
      fail('No new workspace', e)
      return false
    }
  }

  /** Electron: the open dialog (or a recent file); browser host: a recent copy. False when cancelled or failed. */
  async function open(recentId?: string): Promise<boolean> {
    try {
      const next = await call('workspace:open', recentId ? { recentId } : {})
      if (!next) return false
      opened(next)
      return true
    } catch (e) {
      fail('The workspace was not opened', e)
      return false
    }
  }

  /**
   * Browser host: a file the user picked, sent to the host in parts through
   * the upload route (which refuses one over a workspace file's bound, in
   * words, before a byte is sent); main reads it as it would read the file.
   */
  async function importFile(file: File): Promise<boolean> {
    try {
      const upload = await uploadFile(file, 'workspace')
      opened(await call('workspace:import', { upload }))
      return true
    } catch (e) {
      fail('The workspace was not opened, and the open one is unchanged', e)
      return false
    }
  }

  /** The name asked before an untitled workspace's first download; null when none is being asked. */
  const naming = shallowRef<WorkspaceNaming | null>(null)

  /**
   * Saves the workspace: to its file (Electron, asking where when it has
   * none), or as a download of its text (browser host), with a note saying
   * which. A workspace never saved is named first in the browser host, where
   * no save dialog asks: the download and the workspace take that name.
   */
  async function save(saveAs = false): Promise<SaveOutcome> {
    const current = view.value
    if (current?.saveTarget === 'download' && current.fileName === null) return saveNamed()
    try {
      return saved(await call('workspace:save', saveAs ? { saveAs } : {}))
    } catch (e) {
      fail('The workspace was not saved', e)
      return 'failed'
    }
  }

  /** Asks the name (the dialog shows what main refuses, and stays), then saves under it. */
  function saveNamed(): Promise<SaveOutcome> {
    naming.value?.finish()
    return new Promise((resolve) => {
      let outcome: SaveOutcome = 'cancelled'
      naming.value = {
        initial: '',
        save: async (name) => {
          outcome = saved(await call('workspace:save', { name }))
        },
        finish: () => {
          naming.value = null
          resolve(outcome)
        },
      }
    })
  }

  function saved(reply: { workspace: WorkspaceView | null; download: { fileName: string; text: string } | null }): SaveOutcome {
    if (!reply.workspace) return 'cancelled'
    show(reply.workspace)
    if (reply.download) {
      offerDownload(reply.download.fileName, reply.download.text, 'application/json')
      const why = downloadExplained ? '' : ' A page cannot write to the file you opened, so each save is a new download: keep it where the workspace lives.'
      downloadExplained = true
      toasts.show(`Saved as a download: ${reply.download.fileName}.${why}`, { key: 'workspace-save' })
    } else {
      toasts.show(`Saved ${reply.workspace.fileName ?? reply.workspace.name}.`, { key: 'workspace-save' })
    }
    return 'saved'
  }

  async function loadRecent(): Promise<void> {
    try {
      recent.value = await call('workspace:recent', {})
    } catch {
      // The menu still offers "Open file…".
      recent.value = []
    }
  }

  /** Runs one of the file's connections on an app connection the user chose. */
  async function bind(fileConnectionId: string, connectionId: string): Promise<void> {
    show(await call('workspace:bind', { fileConnectionId, connectionId }))
  }

  /** Creates the file's connection in the app; the secret goes to main (and the keychain) and is not kept here. */
  async function createConnection(fileConnectionId: string, secret: string): Promise<string> {
    const reply = await call('workspace:create-connection', { fileConnectionId, ...(secret ? { secret } : {}) })
    await connections.refresh()
    show(reply.workspace)
    return reply.connection.name
  }

  return {
    view, recent, savedQuery, started, error, host, editorRequest, queries, selected, queryDirty, unbound,
    // show: the Tests region's edits (tests:*) reply the workspace view too, and it goes here the same way.
    show, openings, bindingOf, connectionOf, start, flushDraft, loadSaved, saveQuery, renameQuery, duplicateQuery, deleteQuery,
    newWorkspace, open, importFile, save, naming, loadRecent, bind, createConnection, declaredFacets, setDeclaredFacets,
  }
})
