import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'
import { writeFileAtomic } from './atomic-file'
import { readJsonFile, setAside } from './json-file'

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
  /** What a record is called in a sentence: "evaluation", "experiment". */
  noun: string
  /** Told of a damaged store and what was done about it (the log, the window's notices). */
  report?: ((note: string) => void) | undefined
}

/** A sentence naming where a value breaks its schema and the rule: "rankings.0.probabilities.1: Invalid input: expected number, received Infinity". */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'not its shape'
  const path = issue.path.map(String).join('.')
  return `${path === '' ? 'record' : path}: ${issue.message}`
}

/**
 * The record as it will be written, checked with the very schema it is read
 * back with: a value JSON cannot hold (Infinity, NaN: written as null) or a
 * field past its bound would make a record that is listed but never opens.
 * Throws a sentence naming the field and the rule.
 */
export function checkedForKeeping<R>(schema: z.ZodType<R>, record: R, noun: string): string {
  const checked = schema.safeParse(record)
  if (!checked.success) throw new Error(`Not kept: the ${noun} would not read back (${firstIssue(checked.error)}).`)
  return JSON.stringify(record)
}

/**
 * Records kept in the data folder, one file each and an index of their
 * summaries, newest last: evaluations (with every query's ranking, to be
 * scored again or written as a TREC run) and experiments. The oldest go past
 * `keep`. A record is checked with the schema it is read with before it is
 * written (checkedForKeeping). An index that does not read (cut short, say)
 * is made again from the records in the folder, newest last by when each was
 * written, and the damaged one is set aside as `index.json.bad`; that is
 * reported, never shown as an empty list.
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
      const text = checkedForKeeping(this.options.record, record, this.options.noun)
      const index = await this.load()
      await writeFileAtomic(this.fileOf(record.id), text)
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
      if (read.kind === 'ok') return read.value as R
      if (read.kind === 'missing') return null
      // Listed but damaged: said in words, and the file is left for the user (it is never removed but by remove()).
      throw new ExplorerError(
        'not_found',
        `The kept ${this.options.noun} "${id}" is listed, but its file does not read as one (damaged, or written by another version); it is left as it is, ${id}.json in the "${this.options.folder}" folder of the data folder.`,
      )
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
    const path = join(this.folder, 'index.json')
    const read = await readJsonFile(path, this.indexSchema).catch(() => ({ kind: 'unreadable' as const }))
    if (read.kind === 'ok') {
      this.index = read.value.records.filter((entry) => ID.test(entry.id))
      return this.index
    }
    const rebuilt = await this.fromRecords()
    this.index = rebuilt.index
    // A missing index over no records is a new data folder: nothing to say or write.
    if (read.kind === 'missing' && rebuilt.index.length === 0 && rebuilt.unreadable === 0) return this.index
    const aside = read.kind === 'unreadable' ? await setAside(path).then(() => true, () => false) : false
    await this.writeIndex(rebuilt.index)
    const plural = `${this.options.noun}s`
    const what = read.kind === 'unreadable' ? `The list of kept ${plural} could not be read` : `The list of kept ${plural} was missing`
    const records = `${rebuilt.index.length} record${rebuilt.index.length === 1 ? '' : 's'}`
    const skipped = rebuilt.unreadable === 0 ? '' : `; ${rebuilt.unreadable} file${rebuilt.unreadable === 1 ? '' : 's'} that did not read as one ${rebuilt.unreadable === 1 ? 'was' : 'were'} left where ${rebuilt.unreadable === 1 ? 'it was' : 'they were'}`
    this.options.report?.(`${what}; it was made again from the ${records} in the folder${skipped}${aside ? ' (the damaged list is kept as index.json.bad)' : ''}.`)
    return this.index
  }

  /** Every record in the folder that reads, as summaries, oldest first (by when each was written), the newest `keep`. */
  private async fromRecords(): Promise<{ index: S[]; unreadable: number }> {
    const names = await fs.readdir(this.folder).catch(() => [] as string[])
    const found: { summary: S; written: number }[] = []
    let unreadable = 0
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : ''
      if (!ID.test(id)) continue
      const file = join(this.folder, name)
      const read = await readJsonFile(file, this.options.record).catch(() => ({ kind: 'unreadable' as const }))
      if (read.kind !== 'ok' || read.value.id !== id) {
        unreadable++
        continue
      }
      const written = await fs.stat(file).then((stat) => stat.mtimeMs, () => 0)
      found.push({ summary: this.options.summaryOf(read.value as R), written })
    }
    found.sort((a, b) => a.written - b.written || (a.summary.id < b.summary.id ? -1 : 1))
    return { index: found.slice(Math.max(0, found.length - this.options.keep)).map((entry) => entry.summary), unreadable }
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
