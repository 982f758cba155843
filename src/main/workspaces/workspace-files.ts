import { promises as fs } from 'node:fs'
import { basename } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { parseWorkspace, serializeParsed, serializeWorkspace, type Workspace, type WorkspaceLayout } from '../../shared/workspace/workspace-file'
import { writeFileAtomic } from '../storage/atomic-file'
import { readTextFile } from '../storage/text-file'

/**
 * Reading and writing workspace files on disk. Reading is bounded and runs
 * nothing from the file (it is JSON checked by a schema); writing goes through
 * a temporary file and a rename, so the previous version is never left
 * half-written, and nothing is written when the workspace does not serialize.
 */

/**
 * The schema's limits with room to spare: 10,000 queries and a set of 200,000
 * judgments (item ids of 14 characters, each with its rater's name), as the
 * app writes them (readable), make 15.6 MiB; the bound is twice that, far
 * below what would hurt to hold in memory.
 */
export const MAX_WORKSPACE_BYTES = 32 * 1024 * 1024

/** A file read: its workspace, and how many bytes it was (so a save of the same content is never larger: documentFor). */
export type ReadWorkspaceResult = { ok: true; workspace: Workspace; bytes: number } | { ok: false; message: string }

export async function readWorkspaceFile(path: string, maxBytes = MAX_WORKSPACE_BYTES): Promise<ReadWorkspaceResult> {
  const read = await readWorkspaceFileText(path, maxBytes)
  return read.ok ? { ok: true, workspace: read.workspace, bytes: read.bytes } : read
}

/** readWorkspaceFile, with the file's text (a BOM left out): the file thread need not make the text again when the file is the app's own (file-worker.ts). */
export async function readWorkspaceFileText(path: string, maxBytes = MAX_WORKSPACE_BYTES): Promise<(ReadWorkspaceResult & { ok: true; text: string }) | (ReadWorkspaceResult & { ok: false })> {
  const name = basename(path)
  const read = await readTextFile(path, name, { maxBytes, noun: 'a workspace file', tooLarge: (fileName, size) => tooBig(fileName, size, maxBytes) })
  if (!read.ok) return read
  const { text, bytes } = read
  const parsed = parseWorkspace(text, name)
  return parsed.ok ? { ...parsed, bytes, text } : parsed
}

/**
 * The text for a workspace read from a file of `readBytes` bytes: the app's
 * readable layout unless that is larger than the file was (a compact file),
 * then the compact one, so saving with no change never makes a file larger.
 */
export function documentFor(workspace: Workspace, readBytes: number): string {
  const readable = serializeWorkspace(workspace)
  return Buffer.byteLength(readable, 'utf8') <= readBytes ? readable : serializeWorkspace(workspace, 'compact')
}

/** documentFor of a workspace parseWorkspace just gave: it is not put through the schema a second time. */
export function documentOfParsed(workspace: Workspace, readBytes: number): string {
  const readable = serializeParsed(workspace)
  return Buffer.byteLength(readable, 'utf8') <= readBytes ? readable : serializeParsed(workspace, 'compact')
}

/** Serializes first, so a workspace that cannot be written leaves the file on disk as it was. */
export async function writeWorkspaceFile(path: string, workspace: Workspace, layout: WorkspaceLayout = 'readable'): Promise<void> {
  await writeWorkspaceText(path, serializeWorkspace(workspace, layout))
}

/**
 * Writes a workspace file's text, keeping the permissions of the file it
 * replaces (a shared 0644 file stays 0644); a new file gets what any new file
 * gets (0666 less the umask), not the 0600 of the app's own data.
 */
export async function writeWorkspaceText(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, await modeOf(path))
}

async function modeOf(path: string): Promise<number | 'umask'> {
  try {
    return (await fs.stat(path)).mode & 0o7777
  } catch {
    // No file yet (or none that can be seen): the write says why if it fails too.
    return 'umask'
  }
}

/** size: null when the read passed the bound (the file grew after it was looked at, or has no size). */
function tooBig(name: string, size: number | null, maxBytes: number): string {
  return `"${name}" is too large to be a workspace file (${size === null ? `${formatBytes(maxBytes + 1)} or more` : formatBytes(size)}; the most is ${formatBytes(maxBytes)}).`
}
