import { computed } from 'vue'
import type { RecentWorkspace } from '../../../shared/ipc/contract'
import { useWorkspaceStore } from '../../stores/workspace'

/** Where a recent workspace is: its folder (Electron), or that it is the copy kept when it was last opened or saved (browser host). */
export function recentHint(entry: RecentWorkspace): string {
  return entry.kind === 'copy' ? 'copy kept by the app' : (entry.folder ?? entry.fileName)
}

/**
 * "Open workspace": a menu (MenuPopover) with "Open file…" and the last
 * workspaces opened, asked of main each time it opens.
 */
export function useOpenWorkspaceMenu() {
  const store = useWorkspaceStore()
  const recent = computed(() => store.recent)
  return { recent, loadRecent: () => store.loadRecent(), recentHint }
}
