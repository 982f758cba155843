import { join } from 'node:path'
import { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'
import { mergeViewPrefs, ViewPrefsSchema, type ViewPrefs } from '../../shared/view-prefs'
import { writeFileAtomic } from './atomic-file'
import { readJsonFile, setAside } from './json-file'

export const VIEW_PREFS_FILE = 'view-prefs.json'

const FileSchema = z.object({ version: z.literal(1), prefs: ViewPrefsSchema })

/**
 * The window's view preferences in one small file in the data folder (the
 * browser host's page forgets its localStorage with each new port). A file
 * that cannot be read is set aside and the defaults used: preferences are
 * never worth refusing to start over.
 */
export class ViewPrefsStore {
  private prefs: ViewPrefs = {}
  /** Writes one after another, so the file always ends with the last change. */
  private writing: Promise<void> = Promise.resolve()
  /** Set when the file on disk could not be read (it was set aside). */
  problem: string | null = null

  constructor(private readonly dataDir: string) {}

  private get path(): string {
    return join(this.dataDir, VIEW_PREFS_FILE)
  }

  async load(): Promise<void> {
    let read
    try {
      read = await readJsonFile(this.path, FileSchema)
    } catch (error) {
      this.problem = `The view preferences file ${this.path} could not be read (${(error as Error).message}); using the defaults.`
      return
    }
    if (read.kind === 'missing') return
    if (read.kind === 'ok') {
      this.prefs = read.value.prefs
      return
    }
    try {
      this.problem = `The view preferences file could not be read and was kept as ${await setAside(this.path)}; using the defaults.`
    } catch {
      this.problem = `The view preferences file ${this.path} could not be read; using the defaults.`
    }
  }

  get(): ViewPrefs {
    return structuredClone(this.prefs)
  }

  /** Merges a change already checked against the contract; refuses one that would break a count limit. */
  async update(patch: ViewPrefs): Promise<ViewPrefs> {
    const merged = mergeViewPrefs(this.prefs, patch)
    if ('refusal' in merged) throw new ExplorerError('validation', `Invalid view-prefs:set request: ${merged.refusal}`)
    await this.write(merged.prefs)
    return this.get()
  }

  /** The view as it first was; the rater's name is the person's, not the view's, and stays. */
  async reset(): Promise<ViewPrefs> {
    await this.write(this.prefs.rater === undefined ? {} : { rater: this.prefs.rater })
    return this.get()
  }

  private async write(prefs: ViewPrefs): Promise<void> {
    this.prefs = prefs
    const file: z.infer<typeof FileSchema> = { version: 1, prefs }
    const write = this.writing.then(() => writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n'))
    this.writing = write.catch(() => undefined)
    await write
  }
}
