import { z } from 'zod'
import { RunTargetSchema } from '../compare/compare-targets'
import { ExperimentRecordSchema, ExperimentSummarySchema } from '../experiments/experiment-record'
import { MAX_EVAL_DEPTH } from '../relevance/set-template'
import { jobChannels, SetJobStatusSchema } from './job-channels'
import { ExperimentJudgeNextSchema, JudgeNextRequestSchema } from './relevance-contract'

/**
 * The channels of experiments: a query set on two or more targets, the
 * first the baseline, compared with the statistics of experiment.ts, kept
 * and listed. Merged into the one contract (contract.ts).
 */

const Id = z.string().min(1).max(200)
const SetName = z.string().min(1).max(200)
/** The baseline and up to four others: each side is a whole evaluation of the set. */
export const MAX_EXPERIMENT_SIDES = 5

export const ExperimentRunStatusSchema = SetJobStatusSchema.extend({
  /** What runs now: "B: Demo, config production", "step 1–2: + country:FILTER", "statistics". */
  phase: z.string(),
  /** The kept experiment, once done (`experiments:get`). */
  experimentId: z.string().nullable(),
})

export const experimentContract = {
  /**
   * Evaluates a set on each side (the first is the baseline), optionally each
   * prefix of its template on the baseline's target, then compares the sides.
   * Replies at once; progress through `experiments:status`.
   */
  ...jobChannels('experiments', {
    start: z
      .object({
        runId: Id,
        set: SetName,
        sides: z.array(RunTargetSchema).min(2).max(MAX_EXPERIMENT_SIDES),
        depth: z.number().int().min(1).max(MAX_EVAL_DEPTH),
        metrics: z.string().min(1).max(500).optional(),
        attribution: z.boolean().optional(),
        alpha: z.number().gt(0).lt(1).optional(),
      })
      .strict(),
    status: ExperimentRunStatusSchema,
  }),
  /** Kept experiments, newest first (of one set when named). */
  'experiments:list': { request: z.object({ set: SetName.optional() }).strict(), reply: z.array(ExperimentSummarySchema) },
  'experiments:get': { request: z.object({ id: Id }).strict(), reply: ExperimentRecordSchema },
  /**
   * What to judge next in a kept experiment (docs/METRICS.md): per other side
   * and metric, how far the mean delta could move were the unjudged items of
   * either side's top judgeDepth judged, whether its sign or its significance
   * could change, and the (query, item) pairs that could change a verdict,
   * the first `limit`. From its sides' kept rankings and the set's judgments
   * and settings as they are now, worked out in a worker thread.
   */
  'experiments:judge-next': { request: JudgeNextRequestSchema, reply: ExperimentJudgeNextSchema },
} as const

export type ExperimentChannel = keyof typeof experimentContract
export type ExperimentRunStatus = z.infer<typeof ExperimentRunStatusSchema>
