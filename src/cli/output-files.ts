import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { writeFileAtomic } from '../main/storage/atomic-file'
import { InputError } from './command'
import type { CliIo } from './io'

/**
 * The files a command writes besides its output (--junit, --trec-run). A
 * path that cannot be written is bad input (exit 2) named with its flag and
 * why: checked before the run, so a long evaluation is not run for a report
 * that cannot be kept, and again when written, should it have changed since.
 */

/** Refuses (InputError) a path that is a folder, or where no file can be made; makes its folders, as the write would. */
export async function checkOutputPath(flag: string, path: string): Promise<void> {
  const target = resolve(path)
  const info = await fs.stat(target).catch(() => null)
  if (info?.isDirectory()) throw new InputError([`${flag}: "${path}" is a folder, not a file; nothing was run.`])
  // A file made and removed where the write will put its own temporary file: what the folder allows, asked of the folder.
  const probe = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await fs.mkdir(dirname(target), { recursive: true })
    const handle = await fs.open(probe, 'wx', 0o600)
    await handle.close()
    await fs.rm(probe, { force: true })
  } catch (error) {
    throw new InputError([`${flag}: "${path}" cannot be written: ${reason(error)}; nothing was run.`])
  }
}

/** Writes the text (atomically, with no spelling of the run's secrets in it); a failure is bad input naming the flag and path. */
export async function writeOutput(flag: string, path: string, text: string, io: Pick<CliIo, 'secrets'>): Promise<void> {
  try {
    await writeFileAtomic(resolve(path), io.secrets ? io.secrets.scrub(text) : text)
  } catch (error) {
    throw new InputError([`${flag}: "${path}" could not be written: ${reason(error)}.`])
  }
}

/** Why a file could not be made, in words: the system's message names a temporary file the person never asked for. */
export function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EISDIR':
      return 'it is a folder'
    case 'ENOTDIR':
    // Making the folders of a/file.txt/x.xml: "a/file.txt" exists, as a file.
    case 'EEXIST':
      return 'a part of its path is a file, not a folder'
    case 'ENOENT':
      return 'no file can be made in that folder'
    case 'EROFS':
      return 'the file system is read-only'
    case 'ENOSPC':
      return 'the disk is full'
    case 'ENAMETOOLONG':
      return 'the name is too long'
    default:
      return code ?? (error instanceof Error ? error.message : String(error))
  }
}
