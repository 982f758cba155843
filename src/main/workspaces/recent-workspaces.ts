import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import type { RecentWorkspace } from '../../shared/ipc/contract'
import type { Logger } from '../logging/logger'
import { writeFileAtomic } from '../storage/atomic-file'
import { workspaceName } from './workspace-names'
import { MAX_WORKSPACE_BYTES } from './workspace-files'
import { WriteQueue } from '../storage/write-queue'

export const RECENT_FILE = 'recent-workspaces.json'
export const RECENT_COPIES_DIR = 'recent'
export const MAX_RECENT = 10

/**
 * The workspaces last opened or saved, newest first. Electron reopens the
 * file itself, by the path a dialog gave; that path stays in main, the
 * renderer only ever sees an id, the name and the folder. The browser host
 * cannot reopen a file the user picked in the page, so main keeps a copy of
 * the text it imported or offered for download, in `recent/<id>.qxw.json`:
 * at most `MAX_RECENT` copies of at most `MAX_WORKSPACE_BYTES` each, a copy deleted as soon as
 * its entry falls off the list.
 */

const At = z.string().max(40)
/** Copy ids name files in the data folder: only what randomUUID makes. */
const CopyId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
const COPY_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.qxw\.json$/

const FileEntrySchema = z.object({ id: CopyId, path: z.string().min(1).max(4_096), at: At }).strict()
const CopyEntrySchema = z.object({ id: CopyId, fileName: z.string().min(1).max(255), at: At }).strict()
const RecentFileSchema = z
  .object({
    version: z.literal(1),
    files: z.array(FileEntrySchema).max(100),
    copies: z.array(CopyEntrySchema).max(100),
  })
  .strict()

export type RecentFileEntry = z.infer<typeof FileEntrySchema>
export type RecentCopyEntry = z.infer<typeof CopyEntrySchema>
type RecentFile = z.infer<typeof RecentFileSchema>

export class RecentWorkspaces {
  private data: RecentFile = { version: 1, files: [], copies: [] }
  private readonly queue = new WriteQueue()

  private constructor(
    private readonly dataDir: string,
    private readonly log: Pick<Logger, 'info' | 'error'>,
    private readonly now: () => Date,
  ) {}

  /** Reads the list; a file that does not read as one counts as an empty list (it is only a convenience). */
  static async open(dataDir: string, log: Pick<Logger, 'info' | 'error'>, now: () => Date = () => new Date()): Promise<RecentWorkspaces> {
    const recents = new RecentWorkspaces(dataDir, log, now)
    await recents.load()
    return recents
  }

  private get path(): string {
    return join(this.dataDir, RECENT_FILE)
  }

  private copyPath(id: string): string {
    return join(this.dataDir, RECENT_COPIES_DIR, `${CopyId.parse(id)}.qxw.json`)
  }

  private async load(): Promise<void> {
    let text: string | null = null
    try {
      text = await fs.readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.error('recent workspaces could not be read', error)
    }
    if (text !== null) {
      let parsed: ReturnType<typeof RecentFileSchema.safeParse>
      try {
        parsed = RecentFileSchema.safeParse(JSON.parse(text))
      } catch {
        parsed = RecentFileSchema.safeParse(undefined)
      }
      if (parsed.success) {
        this.data = { version: 1, files: parsed.data.files.slice(0, MAX_RECENT), copies: parsed.data.copies.slice(0, MAX_RECENT) }
      } else {
        this.log.info(`${RECENT_FILE} does not read as a list of recent workspaces; starting with none`)
      }
    }
    await this.deleteStrayCopies()
  }

  /** Copies no entry names (a list set aside, a crash between writes) would otherwise stay forever. */
  private async deleteStrayCopies(): Promise<void> {
    let names: string[]
    try {
      names = await fs.readdir(join(this.dataDir, RECENT_COPIES_DIR))
    } catch {
      return
    }
    const kept = new Set(this.data.copies.map((entry) => entry.id))
    for (const name of names) {
      const id = COPY_FILE.exec(name)?.[1]
      if (id && !kept.has(id)) await fs.rm(join(this.dataDir, RECENT_COPIES_DIR, name), { force: true }).catch(() => undefined)
    }
  }

  /** The entries of one kind (Electron: files; browser host: copies), as the renderer may see them. */
  list(kind: RecentWorkspace['kind']): RecentWorkspace[] {
    return kind === 'file'
      ? this.data.files.map((entry) => ({
          id: entry.id,
          name: workspaceName(basename(entry.path)),
          fileName: basename(entry.path),
          folder: dirname(entry.path),
          at: entry.at,
          kind: 'file' as const,
        }))
      : this.data.copies.map((entry) => ({ id: entry.id, name: workspaceName(entry.fileName), fileName: entry.fileName, folder: null, at: entry.at, kind: 'copy' as const }))
  }

  file(id: string): RecentFileEntry | null {
    return this.data.files.find((entry) => entry.id === id) ?? null
  }

  copy(id: string): RecentCopyEntry | null {
    return this.data.copies.find((entry) => entry.id === id) ?? null
  }

  /** A file just opened or saved goes first; the same path is listed once. */
  rememberFile(path: string): Promise<void> {
    return this.serial(async () => {
      const id = this.data.files.find((entry) => entry.path === path)?.id ?? randomUUID()
      const files = [{ id, path, at: this.now().toISOString() }, ...this.data.files.filter((entry) => entry.path !== path)]
      await this.write({ ...this.data, files: files.slice(0, MAX_RECENT) })
    })
  }

  /**
   * Keeps a copy of a text imported or offered for download, first in the
   * list; the same file name is listed once (with its newest text). A text
   * over the workspace size limit is not kept.
   */
  rememberCopy(fileName: string, text: string): Promise<void> {
    return this.serial(async () => {
      if (Buffer.byteLength(text, 'utf8') > MAX_WORKSPACE_BYTES) return
      const id = this.data.copies.find((entry) => entry.fileName === fileName)?.id ?? randomUUID()
      await writeFileAtomic(this.copyPath(id), text)
      const copies = [{ id, fileName, at: this.now().toISOString() }, ...this.data.copies.filter((entry) => entry.id !== id)]
      const fallen = copies.slice(MAX_RECENT)
      await this.write({ ...this.data, copies: copies.slice(0, MAX_RECENT) })
      for (const entry of fallen) await fs.rm(this.copyPath(entry.id), { force: true })
    })
  }

  /** The text of a kept copy; null when it is gone. */
  async readCopy(id: string): Promise<string | null> {
    try {
      const path = this.copyPath(id)
      const info = await fs.stat(path)
      if (!info.isFile() || info.size > MAX_WORKSPACE_BYTES) return null
      return await fs.readFile(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  /** Takes an entry off the list (its file is gone), and its copy with it. */
  forget(id: string): Promise<void> {
    return this.serial(async () => {
      const files = this.data.files.filter((entry) => entry.id !== id)
      const copies = this.data.copies.filter((entry) => entry.id !== id)
      if (files.length === this.data.files.length && copies.length === this.data.copies.length) return
      await this.write({ ...this.data, files, copies })
      if (CopyId.safeParse(id).success) await fs.rm(this.copyPath(id), { force: true })
    })
  }

  private async write(next: RecentFile): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`)
    this.data = next
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work)
  }
}
