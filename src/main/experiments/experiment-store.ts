import { ExperimentRecordSchema, ExperimentSummarySchema, experimentSummary, type ExperimentRecord, type ExperimentSummary } from '../../shared/experiments/experiment-record'
import { KeptRecords } from '../storage/kept-records'

/** Experiments kept, the newest; each side's evaluation is kept on its own (EvaluationStore). */
export const KEPT_EXPERIMENTS = 50

/** Kept experiments in `<dataDir>/experiments/`: one file each (its statistics) and an index of their summaries. */
export class ExperimentStore extends KeptRecords<ExperimentRecord, ExperimentSummary> {
  /** `report`: told when a damaged index was made again from the records on disk. */
  constructor(dataDir: string, report?: (note: string) => void) {
    super(dataDir, {
      folder: 'experiments',
      noun: 'experiment',
      record: ExperimentRecordSchema,
      summary: ExperimentSummarySchema,
      summaryOf: experimentSummary,
      keep: KEPT_EXPERIMENTS,
      report,
    })
  }
}
