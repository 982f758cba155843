import { promises as fs } from 'node:fs'
import { readBounded } from './bounded-read'
import { unreadableFile } from './unreadable-file'

/**
 * The one way a text file the user named is read whole (a workspace file, a
 * judgments file, an upload): opened once, refused unless it is a file,
 * read through the bound (it may grow after it is looked at), and decoded
 * as UTF-8 or refused. Each refusal is a sentence naming the file by its
 * name, never its folder.
 */

export interface TextFileKind {
  maxBytes: number
  /** The file as a sentence names it: "a workspace file". */
  noun: string
  /** The sentence for a file over the bound: its size when known, null when the read passed the bound. */
  tooLarge(fileName: string, size: number | null): string
}

export type TextFileRead = { ok: true; text: string; bytes: number } | { ok: false; message: string }

export async function readTextFile(path: string, fileName: string, kind: TextFileKind): Promise<TextFileRead> {
  let bytes: Buffer | null
  try {
    const handle = await fs.open(path, 'r')
    try {
      const info = await handle.stat()
      if (!info.isFile()) return { ok: false, message: `"${fileName}" is not a file.` }
      if (info.size > kind.maxBytes) return { ok: false, message: kind.tooLarge(fileName, info.size) }
      bytes = await readBounded(handle.createReadStream({ start: 0, autoClose: false }), kind.maxBytes)
    } finally {
      await handle.close()
    }
  } catch (error) {
    return { ok: false, message: unreadableFile(fileName, error, kind.noun) }
  }
  if (bytes === null) return { ok: false, message: kind.tooLarge(fileName, null) }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), bytes: bytes.length }
  } catch {
    return { ok: false, message: `"${fileName}" is not UTF-8 text, so it is not ${kind.noun}.` }
  }
}
