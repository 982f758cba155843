import type Database from 'libsql'
import { ExperimentRecordSchema, ExperimentSummarySchema, experimentSummary, type ExperimentRecord, type ExperimentSummary } from '../../../shared/experiments/experiment-record'
import { ExplorerError } from '../../../shared/ipc/errors'
import { checkedForKeeping } from '../kept-records'
import { keptSummaries, readJsonRow } from './json-rows'
import { scalar } from './schema'

/**
 * Kept experiments in the data folder's database, a row each (its summary
 * for lists, and the record: its statistics; each side's evaluation is kept
 * on its own). Checked with the schema it is read with before it is written;
 * the newest `keep` are kept. Runs on the store's thread only.
 */
export class ExperimentsTable {
  constructor(
    private readonly db: Database.Database,
    private readonly keep: number,
  ) {}

  add(record: ExperimentRecord): ExperimentSummary {
    const text = checkedForKeeping(ExperimentRecordSchema, record, 'experiment')
    const summary = experimentSummary(record)
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO experiments (id, set_name, summary, record) VALUES (?, ?, ?, ?)').run(record.id, record.set, JSON.stringify(summary), text)
      this.db.prepare('DELETE FROM experiments WHERE seq <= (SELECT seq FROM experiments ORDER BY seq DESC LIMIT 1 OFFSET ?)').run(this.keep)
    })()
    return summary
  }

  /** Summaries, newest first, of one set when named; a row that no longer reads is left out. */
  list(set?: string): ExperimentSummary[] {
    return keptSummaries(this.db, 'experiments', set, ExperimentSummarySchema)
  }

  get(id: string): ExperimentRecord | null {
    const text = scalar(this.db.prepare('SELECT record FROM experiments WHERE id = ?'), id) as string | undefined
    if (text === undefined) return null
    const record = readJsonRow(text, ExperimentRecordSchema)
    if (!record) {
      throw new ExplorerError('not_found', `The kept experiment "${id}" is listed, but it does not read as one (damaged, or written by another version); it is left as it is in the data folder's database.`)
    }
    return record
  }
}
