import { ExplorerError } from '../../shared/ipc/errors'
import { WORKSPACE_EXTENSION } from '../../shared/workspace/workspace-file'

/** How workspaces are named for the user: after their file, as the window title and the recent list show them. */

export const UNTITLED_WORKSPACE = 'Untitled workspace'

/** "team.qxw.json" → "team"; a plain ".json" goes too. */
export function workspaceName(fileName: string | null): string {
  if (!fileName) return UNTITLED_WORKSPACE
  const bare = fileName.replace(/\.qxw\.json$/i, '').replace(/\.json$/i, '')
  return bare || fileName
}

/**
 * The file name a workspace is saved under, ending in `.qxw.json` so that the
 * open dialog's filter and the next teammate recognise it: "team" and
 * "team.qxw" get the extension, "team.json" becomes "team.qxw.json".
 */
export function withWorkspaceExtension(fileName: string): string {
  if (/\.qxw\.json$/i.test(fileName)) return fileName
  if (/\.qxw$/i.test(fileName)) return `${fileName}.json`
  if (/\.json$/i.test(fileName)) return `${fileName.slice(0, -'.json'.length)}${WORKSPACE_EXTENSION}`
  return `${fileName}${WORKSPACE_EXTENSION}`
}

/** A name the page sent for a file it read: only the last part of anything that looks like a path, never empty. */
export function pickedFileName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop()?.trim() ?? ''
  return last.replace(/[\u0000-\u001f\u007f]/g, '') || `workspace${WORKSPACE_EXTENSION}`
}

/**
 * The file name for a name the user typed for a workspace ("Team queries" →
 * "Team queries.qxw.json"). It names a download, never a path: a slash or
 * backslash, a control character, a name of dots only or an empty one is
 * refused, naming the rule.
 */
export function workspaceFileName(name: string): string {
  const trimmed = name.trim()
  const refuse = (rule: string) => new ExplorerError('validation', `Workspace name: ${rule}.`, { problems: [{ field: 'name', message: rule }] })
  if (trimmed === '') throw refuse('give the workspace a name')
  if (/[\\/]/.test(trimmed)) throw refuse('a name cannot hold / or \\')
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw refuse('a name cannot hold control characters')
  if (/^\.+$/.test(trimmed)) throw refuse('a name needs more than dots')
  return withWorkspaceExtension(trimmed)
}
