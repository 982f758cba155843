import { promises as fs } from 'node:fs'
import { basename } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { ExplorerError } from '../../shared/ipc/errors'
import { readBounded } from '../storage/bounded-read'
import type { UploadKind } from '../../shared/ipc/uploads'
import type { FileDialogs, FileFilter } from './file-dialogs'
import type { UploadTickets } from './upload-tickets'

/**
 * The one way a channel reads a file the user picked in the window, in
 * either host: in Electron main asks its open dialog and reads the path that
 * comes back; in the browser host the page has sent the file's bytes through
 * the upload route and the request names the upload by its ticket. Either
 * way the file is read through the same bound and its text never travels in
 * a message. Judgment files and workspace files use it.
 */

export interface ChosenFiles {
  /** Electron's native dialogs; null in the browser host. */
  dialogs: FileDialogs | null
  /** The browser host's uploads; null in Electron. */
  uploads: UploadTickets | null
}

/** What is being read, for the dialog and for the refusals. */
export interface FileKind {
  /** The open dialog's title: "Import judgments". */
  title: string
  filters: FileFilter[]
  maxBytes: number
  /** The file as a sentence names it: "a judgments file". */
  noun: string
  /** What the page sends it as through the upload route (its bound there is this kind's). */
  upload: UploadKind
  /** What to do with a file over the bound, a sentence: "Split it into smaller files and import each." */
  overBound: string
}

export interface ChosenText {
  fileName: string
  text: string
}

/** The text of the file chosen: the upload named, else the one the open dialog picks; null when the user cancelled the dialog. */
export async function chosenFileText(files: ChosenFiles, upload: string | undefined, kind: FileKind): Promise<ChosenText | null> {
  if (upload !== undefined) {
    if (!files.uploads) throw new ExplorerError('validation', 'This window reads the file its open dialog picks: a request here names no upload.')
    return files.uploads.take(upload, kind.upload, async (file) => ({ fileName: file.fileName, text: await readTextFile(file.path, file.fileName, kind) }))
  }
  if (!files.dialogs) throw new ExplorerError('validation', 'In the browser host the page sends the file to the app first (the upload route), and the request names that upload.')
  const path = await files.dialogs.chooseOpen({ title: kind.title, filters: kind.filters })
  if (path === null) return null
  const fileName = basename(path)
  return { fileName, text: await readTextFile(path, fileName, kind) }
}

/** A file's text through the bound (a pipe or /dev/zero has no size to ask first), UTF-8 or refused in words. */
async function readTextFile(path: string, fileName: string, kind: FileKind): Promise<string> {
  let bytes: Buffer | null
  try {
    const handle = await fs.open(path, 'r')
    try {
      if (!(await handle.stat()).isFile()) throw new ExplorerError('validation', `"${fileName}" is not a file.`)
      bytes = await readBounded(handle.createReadStream({ start: 0, autoClose: false }), kind.maxBytes)
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (error instanceof ExplorerError) throw error
    throw new ExplorerError('validation', unreadable(fileName, error as NodeJS.ErrnoException))
  }
  if (bytes === null) {
    throw new ExplorerError('validation', `"${fileName}" holds more than ${formatBytes(kind.maxBytes)}, more than ${kind.noun} may; ${kind.overBound}`)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ExplorerError('validation', `"${fileName}" is not UTF-8 text, so it is not ${kind.noun}.`)
  }
}

function unreadable(fileName: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `"${fileName}" was not found.`
    case 'EACCES':
    case 'EPERM':
      return `"${fileName}" could not be read: permission denied.`
    case 'EISDIR':
      return `"${fileName}" is a folder, not a file.`
    default:
      return `"${fileName}" could not be read (${error.code ?? 'an error of the file system'}).`
  }
}
