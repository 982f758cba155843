import { basename, dirname } from 'node:path'
import { ExplorerError } from '../../shared/ipc/errors'

/** A failed write of a workspace file, said so that the user knows which file and what to do. */
export function writeError(path: string, error: unknown): ExplorerError {
  const name = `"${basename(path)}"`
  const code = (error as NodeJS.ErrnoException | null)?.code
  const folder = dirname(path)
  const why = (() => {
    switch (code) {
      case 'EACCES':
      case 'EPERM':
        return `permission denied in ${folder}. Choose another folder with Save as.`
      case 'ENOSPC':
      case 'EDQUOT':
        return 'the disk is full. Make room, or choose another disk with Save as.'
      case 'EROFS':
        return `${folder} is on a read-only disk. Choose another folder with Save as.`
      case 'EISDIR':
        return 'a folder has that name. Choose another name with Save as.'
      case 'ENOENT':
      case 'ENOTDIR':
      case 'EEXIST':
        return `the folder ${folder} does not exist any more. Choose another folder with Save as.`
      default:
        return error instanceof Error ? error.message : String(error)
    }
  })()
  return new ExplorerError('validation', `${name} could not be saved: ${why} The workspace is still open, with its changes.`)
}
