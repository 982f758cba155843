import type { ExperimentRecord, ExperimentSummary } from '../../shared/experiments/experiment-record'
import type { DataStore } from '../storage/data-store/data-store'

export { KEPT_EXPERIMENTS } from '../storage/data-store/store-protocol'

/** Kept experiments, in the data folder's database (experiments-table.ts), a row each; each side's evaluation is kept on its own. */
export class ExperimentStore {
  constructor(private readonly data: DataStore) {}

  /** Keeps the record (checked in the store's thread with the schema it is read with); its summary. */
  add(record: ExperimentRecord): Promise<ExperimentSummary> {
    return this.data.experimentAdd(record)
  }

  /** Summaries, newest first, of one set when named. */
  list(set?: string): Promise<ExperimentSummary[]> {
    return this.data.experimentList(set)
  }

  get(id: string): Promise<ExperimentRecord | null> {
    return this.data.experimentGet(id)
  }
}
