import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes through a temporary file in the same folder and a rename, so a crash
 * mid-write leaves either the old file or the new one, never half of one.
 *
 * `mode`: without it the file is 0600 (the app's own data); a number is set
 * exactly (a file the user owns keeps its permissions); `'umask'` gives what
 * any new file gets (0666 less the umask).
 */
export async function writeFileAtomic(path: string, content: string, mode?: number | 'umask'): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await fs.open(temp, 'w', mode === 'umask' ? 0o666 : 0o600)
  try {
    // chmod on the temporary file, before the rename: the file never shows other permissions than its own.
    if (typeof mode === 'number') await handle.chmod(mode)
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.rename(temp, path)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}
