import { promises as fs } from 'node:fs'
import { basename } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { parseWorkspace, serializeWorkspace, type ParseWorkspaceResult, type Workspace } from '../../shared/workspace/workspace-file'
import { writeFileAtomic } from '../storage/atomic-file'
import { readBounded } from '../storage/bounded-read'

/**
 * Reading and writing workspace files on disk. Reading is bounded and runs
 * nothing from the file (it is JSON checked by a schema); writing goes through
 * a temporary file and a rename, so the previous version is never left
 * half-written, and nothing is written when the workspace does not serialize.
 */

/** Far above any real workspace (thousands of queries), far below what would hurt to hold in memory. */
export const MAX_WORKSPACE_BYTES = 5 * 1024 * 1024

export async function readWorkspaceFile(path: string, maxBytes = MAX_WORKSPACE_BYTES): Promise<ParseWorkspaceResult> {
  const name = basename(path)
  let bytes: Buffer
  try {
    const handle = await fs.open(path, 'r')
    try {
      const info = await handle.stat()
      if (!info.isFile()) return { ok: false, message: `"${name}" is not a file.` }
      if (info.size > maxBytes) return { ok: false, message: tooBig(name, info.size, maxBytes) }
      // Read through the bound all the same: the file may have grown since the stat.
      const read = await readBounded(handle.createReadStream({ start: 0, autoClose: false }), maxBytes)
      if (read === null) return { ok: false, message: tooBig(name, maxBytes + 1, maxBytes) }
      bytes = read
    } finally {
      await handle.close()
    }
  } catch (error) {
    return { ok: false, message: unreadable(name, error as NodeJS.ErrnoException) }
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { ok: false, message: `"${name}" is not UTF-8 text, so it is not a workspace file.` }
  }
  return parseWorkspace(text, name)
}

/** Serializes first, so a workspace that cannot be written leaves the file on disk as it was. */
export async function writeWorkspaceFile(path: string, workspace: Workspace): Promise<void> {
  const text = serializeWorkspace(workspace)
  await writeFileAtomic(path, text)
}

function tooBig(name: string, size: number, maxBytes: number): string {
  return `"${name}" is too large to be a workspace file (${formatBytes(size)}${size === maxBytes + 1 ? ' or more' : ''}; the most is ${formatBytes(maxBytes)}).`
}

function unreadable(name: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `"${name}" was not found.`
    case 'EACCES':
    case 'EPERM':
      return `"${name}" could not be read: permission denied.`
    case 'EISDIR':
      return `"${name}" is a folder, not a workspace file.`
    default:
      return `"${name}" could not be read: ${error.message}`
  }
}
