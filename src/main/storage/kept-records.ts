import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from './atomic-file'
import { readJsonFile } from './json-file'

/** Ids are ours (randomUUID); one read back from an index is checked before it names a file. */
const ID = /^[0-9a-f-]{36}$/

export interface KeptRecordsOptions<R extends { id: string }, S extends { id: string }> {
  /** The folder in the data folder: `evaluations`, `experiments`. */
  folder: string
  record: z.ZodType<R>
  summary: z.ZodType<S>
  summaryOf: (record: R) => S
  /** How many are kept, the newest. */
  keep: number
}

/**
 * Records kept in the data folder, one file each and an index of their
 * summaries, newest last: evaluations (with every query's ranking, to be
 * scored again or written as a TREC run) and experiments. The oldest go past
 * `keep`. An index that does not read is started again; the files it named
 * are left where they are.
 */
export class KeptRecords<R extends { id: string }, S extends { id: string }> {
  private readonly folder: string
  private readonly indexSchema: z.ZodType<{ version: 1; records: S[] }>
  private index: S[] | null = null
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    dataDir: string,
    private readonly options: KeptRecordsOptions<R, S>,
  ) {
    this.folder = join(dataDir, options.folder)
    this.indexSchema = z.object({ version: z.literal(1), records: z.array(options.summary) }) as z.ZodType<{ version: 1; records: S[] }>
  }

  add(record: R): Promise<S> {
    return this.serial(async () => {
      const index = await this.load()
      await writeFileAtomic(this.fileOf(record.id), JSON.stringify(record))
      const summary = this.options.summaryOf(record)
      index.push(summary)
      const dropped = index.splice(0, Math.max(0, index.length - this.options.keep))
      await this.writeIndex(index)
      await Promise.all(dropped.map((old) => fs.rm(this.fileOf(old.id), { force: true })))
      return summary
    })
  }

  /** Summaries, newest first, those `keep` lets through. */
  list(keep: (summary: S) => boolean = () => true): Promise<S[]> {
    return this.serial(async () => (await this.load()).filter(keep).reverse())
  }

  get(id: string): Promise<R | null> {
    return this.serial(async () => {
      if (!(await this.load()).some((entry) => entry.id === id)) return null
      const read = await readJsonFile(this.fileOf(id), this.options.record)
      return read.kind === 'ok' ? (read.value as R) : null
    })
  }

  remove(id: string): Promise<boolean> {
    return this.serial(async () => {
      const index = await this.load()
      const at = index.findIndex((entry) => entry.id === id)
      if (at < 0) return false
      index.splice(at, 1)
      await this.writeIndex(index)
      await fs.rm(this.fileOf(id), { force: true })
      return true
    })
  }

  private fileOf(id: string): string {
    if (!ID.test(id)) throw new Error(`Not a record id: ${id.slice(0, 80)}`)
    return join(this.folder, `${id}.json`)
  }

  private async load(): Promise<S[]> {
    if (this.index) return this.index
    const read = await readJsonFile(join(this.folder, 'index.json'), this.indexSchema).catch(() => ({ kind: 'unreadable' as const }))
    this.index = read.kind === 'ok' ? read.value.records.filter((entry) => ID.test(entry.id)) : []
    return this.index
  }

  private writeIndex(index: S[]): Promise<void> {
    return writeFileAtomic(join(this.folder, 'index.json'), JSON.stringify({ version: 1, records: index }))
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}
