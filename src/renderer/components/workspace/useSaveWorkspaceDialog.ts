import { storeToRefs } from 'pinia'
import { useWorkspaceStore } from '../../stores/workspace'

/**
 * The name "Save workspace" asks first in the browser host for a workspace
 * never saved: there is no save dialog there, and the download (and the
 * workspace from then on) takes this name rather than "Untitled workspace".
 */
export function useSaveWorkspaceDialog() {
  const { naming } = storeToRefs(useWorkspaceStore())
  const intro = 'Name the workspace: the browser saves it as a download under this name, and later saves keep it.'
  const save = (name: string) => naming.value?.save(name) ?? Promise.resolve()
  const finish = () => naming.value?.finish()
  return { naming, intro, save, finish }
}
