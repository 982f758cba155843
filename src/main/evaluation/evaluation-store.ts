import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { EvaluationSchema, type Evaluation } from '../../shared/relevance/evaluation'
import { EvaluationSummarySchema, type EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import { writeFileAtomic } from '../storage/atomic-file'
import { readJsonFile } from '../storage/json-file'

export const EVALUATIONS_FOLDER = 'evaluations'
const INDEX = 'index.json'
/** Evaluations kept, the newest: each holds every query's ranking, so they are not kept without end. */
export const KEPT_EVALUATIONS = 100

const IndexSchema = z.object({ version: z.literal(1), evaluations: z.array(EvaluationSummarySchema) })

export function summaryOf(evaluation: Evaluation): EvaluationSummary {
  const { rankings: _rankings, scored, ...rest } = evaluation
  const { queries: _queries, ...figures } = scored
  return { ...rest, scored: figures }
}

/**
 * Kept evaluations in the data folder: one file each (its rankings, to be
 * scored again or written as a TREC run) and an index of their summaries,
 * newest last. An index that does not read is started again; the files it
 * named are left where they are.
 */
export class EvaluationStore {
  private readonly folder: string
  private index: EvaluationSummary[] | null = null
  private queue: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string) {
    this.folder = join(dataDir, EVALUATIONS_FOLDER)
  }

  add(evaluation: Evaluation): Promise<EvaluationSummary> {
    return this.serial(async () => {
      const index = await this.load()
      await writeFileAtomic(this.fileOf(evaluation.id), JSON.stringify(evaluation))
      const summary = summaryOf(evaluation)
      index.push(summary)
      const dropped = index.splice(0, Math.max(0, index.length - KEPT_EVALUATIONS))
      await this.writeIndex(index)
      await Promise.all(dropped.map((old) => fs.rm(this.fileOf(old.id), { force: true })))
      return summary
    })
  }

  /** Summaries, newest first; of one set when `set` is given. */
  list(set?: string): Promise<EvaluationSummary[]> {
    return this.serial(async () => (await this.load()).filter((entry) => set === undefined || entry.set === set).reverse())
  }

  get(id: string): Promise<Evaluation | null> {
    return this.serial(async () => {
      if (!(await this.load()).some((entry) => entry.id === id)) return null
      const read = await readJsonFile(this.fileOf(id), EvaluationSchema)
      return read.kind === 'ok' ? read.value : null
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
    // Ids are ours (randomUUID), but one read back from the index is checked before it names a file.
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`Not an evaluation id: ${id.slice(0, 80)}`)
    return join(this.folder, `${id}.json`)
  }

  private async load(): Promise<EvaluationSummary[]> {
    if (this.index) return this.index
    const read = await readJsonFile(join(this.folder, INDEX), IndexSchema).catch(() => ({ kind: 'unreadable' as const }))
    this.index = read.kind === 'ok' ? read.value.evaluations.filter((entry) => /^[0-9a-f-]{36}$/.test(entry.id)) : []
    return this.index
  }

  private writeIndex(index: EvaluationSummary[]): Promise<void> {
    return writeFileAtomic(join(this.folder, INDEX), JSON.stringify({ version: 1, evaluations: index }))
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}
