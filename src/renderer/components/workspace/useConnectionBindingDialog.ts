import { computed, onBeforeUnmount, ref, watch } from 'vue'
import type { ConnectionView, WorkspaceBinding } from '../../../shared/ipc/contract'
import { errorMessage } from '../../api/explorer-client'
import { useConnectionsStore } from '../../stores/connections'
import { useToastsStore } from '../../stores/toasts'
import { useWorkspaceStore } from '../../stores/workspace'
import { useModalDialog } from '../../composables/useModalDialog'

/** The app connection most like the file's: same workspace and API, else same workspace, else the first. */
export function likeliest(binding: WorkspaceBinding, connections: readonly ConnectionView[]): string {
  const file = binding.connection
  const same = connections.find((c) => c.workspace === file.workspace && c.api === file.api)
  return (same ?? connections.find((c) => c.workspace === file.workspace) ?? connections[0])?.id ?? ''
}

/**
 * One by one, the file connections (by their ids in the file) that run on
 * nothing here: each is created from the file's description (the secret the
 * user types goes to main, then the keychain, and is dropped here at once)
 * or mapped onto an app connection. `done` says whether all are resolved.
 */
export function useConnectionBindingDialog(ids: readonly string[], done: (resolved: boolean) => void) {
  const store = useWorkspaceStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const { dialog, once } = useModalDialog()

  const pending = computed(() => store.view?.bindings.filter((b) => ids.includes(b.fileConnectionId) && b.connectionId === null) ?? [])
  const current = computed(() => pending.value[0] ?? null)
  /** "2 of 3" when there are several: how far along the user is. */
  const position = computed(() => (ids.length > 1 ? `${ids.length - pending.value.length + 1} of ${ids.length}` : ''))
  const queriesOn = computed(() => store.queries.filter((q) => q.connection === current.value?.fileConnectionId).length)
  const secret = ref('')
  const secretHint = computed(() =>
    connections.info?.keychain.kind === 'memory'
      ? 'No OS keychain answers: kept in memory for this run only, never in the workspace file.'
      : 'Goes to the OS keychain, never into the workspace file.',
  )
  const chosen = ref('')
  const busy = ref<'create' | 'use' | null>(null)
  const problem = ref<string | null>(null)

  watch(
    () => current.value?.fileConnectionId ?? null,
    (id) => {
      secret.value = ''
      problem.value = null
      if (id === null) once(() => done(true))
      else chosen.value = likeliest(current.value!, connections.connections)
    },
    { immediate: true },
  )
  onBeforeUnmount(() => (secret.value = ''))

  async function create(): Promise<void> {
    const binding = current.value
    if (!binding || busy.value) return
    busy.value = 'create'
    problem.value = null
    const typed = secret.value
    try {
      const name = await store.createConnection(binding.fileConnectionId, typed)
      secret.value = ''
      toasts.show(typed ? `Created the connection “${name}”; its client secret is in the keychain.` : `Created the connection “${name}”.`)
    } catch (e) {
      problem.value = errorMessage(e)
    } finally {
      busy.value = null
    }
  }

  async function use(): Promise<void> {
    const binding = current.value
    if (!binding || busy.value) return
    if (!chosen.value) {
      problem.value = 'Choose one of your connections.'
      return
    }
    busy.value = 'use'
    problem.value = null
    try {
      await store.bind(binding.fileConnectionId, chosen.value)
    } catch (e) {
      problem.value = errorMessage(e)
    } finally {
      busy.value = null
    }
  }

  /** Not now (or Escape): the file connections left stay unbound until a query that needs one is chosen. */
  const later = () => once(() => done(false))

  return { dialog, store, connections, current, position, queriesOn, secret, secretHint, chosen, busy, problem, create, use, later }
}
