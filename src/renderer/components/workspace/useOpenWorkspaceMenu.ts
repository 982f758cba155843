import { computed, nextTick, ref, type Ref } from 'vue'
import type { RecentWorkspace } from '../../../shared/ipc/contract'
import { useWorkspaceStore } from '../../stores/workspace'

/** Where a recent workspace is: its folder (Electron), or that it is the copy kept when it was last opened or saved (browser host). */
export function recentHint(entry: RecentWorkspace): string {
  return entry.kind === 'copy' ? 'copy kept by the app' : (entry.folder ?? entry.fileName)
}

/**
 * "Open workspace": a menu with "Open file…" and the last workspaces opened
 * (asked of main each time it opens). Arrow keys move, Escape closes back on
 * the button, focus leaving closes it.
 */
export function useOpenWorkspaceMenu(button: Ref<HTMLButtonElement | null>, menu: Ref<HTMLElement | null>) {
  const store = useWorkspaceStore()
  const open = ref(false)
  const recent = computed(() => store.recent)

  async function toggle(): Promise<void> {
    open.value = !open.value
    if (!open.value) return
    await store.loadRecent()
    await nextTick()
    menu.value?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  }

  function close(): void {
    open.value = false
  }

  function onMenuKeydown(event: KeyboardEvent): void {
    const entries = [...(menu.value?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const at = entries.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      open.value = false
      button.value?.focus()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      entries[(at + (event.key === 'ArrowDown' ? 1 : -1) + entries.length) % entries.length]?.focus()
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      entries[event.key === 'Home' ? 0 : entries.length - 1]?.focus()
    }
  }

  function onFocusOut(event: FocusEvent): void {
    const next = event.relatedTarget as Node | null
    if (!next || !(event.currentTarget as HTMLElement).contains(next)) open.value = false
  }

  return { open, recent, toggle, close, onMenuKeydown, onFocusOut, recentHint }
}
