import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes through a temporary file in the same folder and a rename, so a crash
 * mid-write leaves either the old file or the new one, never half of one.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await fs.open(temp, 'w', 0o600)
  try {
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
