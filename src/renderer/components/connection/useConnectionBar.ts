import { storeToRefs } from 'pinia'
import { computed, onBeforeUnmount, onMounted, ref, watch } from 'vue'
import { useConnectionsStore } from '../../stores/connections'
import { useToastsStore } from '../../stores/toasts'

/** The top bar's logic: the connection, its API and configuration, its token count and the connection form. */
export function useConnectionBar() {
  const store = useConnectionsStore()
  const toasts = useToastsStore()
  const { selected, selectedId, reauthState } = storeToRefs(store)

  /** The dialog: closed, a new profile, or an existing one (by id). */
  const editing = ref<{ mode: 'new' } | { mode: 'edit'; id: string } | null>(null)

  const now = ref(Date.now())
  let timer: ReturnType<typeof setInterval> | undefined
  let ticks = 0
  onMounted(() => {
    timer = setInterval(() => {
      now.value = Date.now()
      // Queries request tokens too: keep the count beside the connection current.
      if (++ticks % 10 === 0) void store.refresh()
    }, 1_000)
  })
  onBeforeUnmount(() => clearInterval(timer))

  const retryInSeconds = computed(() => {
    const at = selected.value?.retryAt
    return at && at > now.value ? Math.ceil((at - now.value) / 1000) : null
  })

  /** One place in the bar says how the quota stands, so the bar keeps its width while the quota runs out and back. */
  const quotaLabel = computed(() => {
    if (retryInSeconds.value !== null) return `Quota used up: retry in ${retryInSeconds.value} s`
    const count = selected.value?.tokenRequestsLastHour ?? 0
    return `${count} token request${count === 1 ? '' : 's'} in the last hour`
  })

  // The outcome of Re-authenticate is news, not state: a toast, so the bar never changes its width for it.
  watch(reauthState, (state) => {
    if (!state) return
    if (state.ok) toasts.show(`New token issued for ${selected.value?.name ?? 'this connection'}.`, { key: 'reauth' })
    else toasts.show(`Re-authenticate failed: ${state.message}`, { key: 'reauth', tone: 'danger' })
  })

  function openSelected(): void {
    if (selectedId.value) open({ mode: 'edit', id: selectedId.value })
  }

  /** Each opening gets its own dialog; saving a new profile keeps the same one open. */
  let openings = 0
  const dialogKey = ref(0)
  function open(target: { mode: 'new' } | { mode: 'edit'; id: string }): void {
    editing.value = target
    dialogKey.value = ++openings
  }

  async function onSaved(id: string): Promise<void> {
    if (selectedId.value !== id) await store.choose(id)
  }

  function chooseApi(value: string): void {
    store.api = value
    void store.describe()
  }

  function chooseConfig(value: string): void {
    // An emptied box means the service's own default, as before a configuration was named.
    store.config = value || 'default'
  }

  return { store, editing, dialogKey, retryInSeconds, quotaLabel, open, openSelected, onSaved, chooseApi, chooseConfig }
}
