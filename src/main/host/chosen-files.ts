import { basename } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { ExplorerError } from '../../shared/ipc/errors'
import { readTextFile } from '../storage/text-file'
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
    return files.uploads.take(upload, kind.upload, async (file) => ({ fileName: file.fileName, text: await readChosenText(file.path, file.fileName, kind) }))
  }
  if (!files.dialogs) throw new ExplorerError('validation', 'In the browser host the page sends the file to the app first (the upload route), and the request names that upload.')
  const path = await files.dialogs.chooseOpen({ title: kind.title, filters: kind.filters })
  if (path === null) return null
  const fileName = basename(path)
  return { fileName, text: await readChosenText(path, fileName, kind) }
}

/** A file's text through the bound, UTF-8 or refused in words (a pipe or /dev/zero has no size to ask first: the read is bounded). */
async function readChosenText(path: string, fileName: string, kind: FileKind): Promise<string> {
  const read = await readTextFile(path, fileName, {
    maxBytes: kind.maxBytes,
    noun: kind.noun,
    tooLarge: (name) => `"${name}" holds more than ${formatBytes(kind.maxBytes)}, more than ${kind.noun} may; ${kind.overBound}`,
  })
  if (!read.ok) throw new ExplorerError('validation', read.message)
  return read.text
}
