import { z } from 'zod'
import { RunTargetSchema } from '../compare/compare-targets'
import { JudgeSchema, MAX_JUDGE_CONCURRENCY, MAX_JUDGE_DEPTH } from '../relevance/llm-judge'
import { GradeSchema, ItemIdSchema, SetQueryIdSchema } from '../relevance/query-set'
import { RaterNameSchema } from '../relevance/raters'
import { jobChannels, SetJobStatusSchema } from './job-channels'
import { WorkspaceViewSchema } from './workspace-view'

/**
 * The channels of LLM judges (issue 36): a judge's settings (the document's,
 * main owns it), its key (the keychain's, bound to the origin of the judge's
 * base URL: it goes renderer → main once, never back), judging as a
 * background job with an estimate, a budget and Retry failed, and the
 * calibration against people. Merged into the one contract (contract.ts).
 */

const Id = z.string().min(1).max(200)
const Name = z.string().min(1).max(200)

/** The most calls or tokens a budget may allow. */
export const MAX_BUDGET_CALLS = 1_000_000
export const MAX_BUDGET_TOKENS = 10_000_000_000
/** Failures a status lists (the count says how many in all). */
export const MAX_FAILURES_SHOWN = 200

/** Which items a run grades: those the judge has not graded (the default), those too whose grade is stale, or all. */
export const JUDGE_SCOPES = ['ungraded', 'stale', 'all'] as const

export const JudgeRunStartSchema = z
  .object({
    runId: Id,
    judge: Name,
    set: Name,
    /** Where the results are fetched (default: the set's template's own connection). */
    target: RunTargetSchema.optional(),
    /** Each query's top `depth` (default: the judge's). */
    depth: z.number().int().min(1).max(MAX_JUDGE_DEPTH).optional(),
    scope: z.enum(JUDGE_SCOPES).default('ungraded'),
    /** Judge the first N of a kept evaluation's or experiment's judge-next queue instead of every query's top k. */
    next: z.object({ from: z.enum(['evaluation', 'experiment']), id: Id, limit: z.number().int().min(1).max(1_000) }).strict().optional(),
    /** At most this many requests sent (retries count). */
    budgetCalls: z.number().int().min(1).max(MAX_BUDGET_CALLS),
    /** At most this many tokens, input and output together, where the provider reports usage. */
    budgetTokens: z.number().int().min(1).max(MAX_BUDGET_TOKENS).optional(),
    concurrency: z.number().int().min(1).max(MAX_JUDGE_CONCURRENCY).optional(),
    /** Fetch and estimate only: no call to the model. */
    dryRun: z.boolean().default(false),
    /** Retry failed: grade only the items that failed in this earlier run of the same judge and set. */
    retryOf: Id.optional(),
  })
  .strict()

export const JudgeEstimateSchema = z
  .object({
    /** Items in the scope, after the cache. */
    calls: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    /** Items the cache answers (no call). */
    cached: z.number().int(),
    /** Items the judge has graded already under this prompt (left alone unless the scope is all). */
    current: z.number().int(),
    /** Items the judge graded under another prompt, model settings or item content (the grade's prompt digest covers all three). */
    stale: z.number().int(),
    /** "about 1,240 calls, 1.1 M input tokens" */
    text: z.string(),
  })
  .strict()

/** The item a failure names when a query's results could not be fetched at all (Retry failed fetches that query again). */
export const RESULTS_NOT_FETCHED = '(its results)'

export const JudgeFailureSchema = z.object({ query: SetQueryIdSchema, item: ItemIdSchema, reason: z.string() }).strict()

export const JudgeRunStatusSchema = SetJobStatusSchema.extend({
  judge: Name,
  /** What runs now: "fetching results", "judging", "done". */
  phase: z.string(),
  estimate: JudgeEstimateSchema.nullable(),
  /** Graded in this run by a call, and from the cache. */
  graded: z.number().int(),
  cached: z.number().int(),
  /** Every failure of the run (a run keeps the first 10,000 for Retry failed and counts the rest). */
  failedCount: z.number().int(),
  /** The first MAX_FAILURES_SHOWN failures, with the reason (the model's words for an answer off the scale). */
  failures: z.array(JudgeFailureSchema),
  /** Requests sent, retries included. */
  calls: z.number().int(),
  tokens: z.object({ input: z.number().int(), output: z.number().int() }).strict(),
  stoppedByBudget: z.boolean(),
  /** Items of the scope not graded and not failed (failures are counted apart, in failedCount): counted down as the run goes; when it ends, what the budget or a cancel left. */
  left: z.number().int(),
})

/** `judges:calibration`: how far a judge agrees with the set's people, on the items both graded. */
export const JudgeCalibrationSchema = z
  .object({
    judge: RaterNameSchema,
    /** The people's grade of an item is their aggregate (the set's rule); n: items graded by the judge and by a person. */
    n: z.number().int(),
    kappaQuadratic: z.number().nullable(),
    alphaOrdinal: z.number().nullable(),
    agreement: z.number().nullable(),
    reasons: z.object({ kappaQuadratic: z.string(), alphaOrdinal: z.string(), agreement: z.string() }).partial().strict(),
    /** Rows: the people's (rounded) grade; columns: the judge's; in the scale's order. */
    scale: z.array(GradeSchema),
    confusion: z.array(z.array(z.number().int())),
    /** Where they differ most, the widest first (at most 200). */
    differences: z.array(
      z
        .object({
          query: SetQueryIdSchema,
          text: z.string(),
          item: ItemIdSchema,
          judgeGrade: GradeSchema,
          explanation: z.string().nullable(),
          people: z.array(z.object({ rater: RaterNameSchema, grade: GradeSchema }).strict()),
          peopleGrade: z.number(),
          spread: z.number(),
          settled: GradeSchema.nullable(),
        })
        .strict(),
    ),
    /** Who the judge is measured against: the set's people, or where no person graded the set, its other raters that are not LLM judges. */
    reference: z.object({ people: z.boolean(), raters: z.array(RaterNameSchema) }).strict(),
    /** Judge grades whose prompt digest differs from what the judge's prompt gives now: known only after a run or estimate fetched the items. */
    stale: z.number().int().nullable(),
  })
  .strict()

/** `experiments:verdict`: an experiment's table with people's grades only, the judge's only, and both; whether each metric's verdict holds. */
export const VerdictHoldSchema = z
  .object({
    judge: RaterNameSchema,
    /** Whose grades the people's table reads: the people, or where no person graded the set, its other raters that are not LLM judges. */
    reference: z.object({ people: z.boolean(), raters: z.array(RaterNameSchema) }).strict(),
    /** Per side, the items of its top judgeDepth and how many of them the judge graded. */
    coverage: z.array(z.object({ side: z.string(), graded: z.number().int(), items: z.number().int() }).strict()),
    rows: z.array(
      z
        .object({
          side: z.string(),
          metric: z.string(),
          grades: z.enum(['people', 'judge', 'both']),
          /** Paired queries: those with a figure on both sides under these grades. */
          n: z.number().int(),
          /** The mean delta (side − baseline); null when no query is paired. */
          delta: z.number().nullable(),
          /** The paired randomization test's p, and Holm's adjustment of it over the experiment's family under these grades (what significant reads). */
          p: z.number().nullable(),
          pAdjusted: z.number().nullable(),
          significant: z.boolean(),
        })
        .strict(),
    ),
    /** Per side and metric: whether the sign or the significance differs between the three. */
    verdicts: z.array(
      z.object({ side: z.string(), metric: z.string(), signChanges: z.boolean(), significanceChanges: z.boolean(), holds: z.boolean() }).strict(),
    ),
  })
  .strict()

export const judgeContract = {
  /** Adds or replaces (by `previousName`) a judge in the document. */
  'judges:save': { request: z.object({ judge: JudgeSchema, previousName: Name.optional() }).strict(), reply: WorkspaceViewSchema },
  'judges:delete': { request: z.object({ name: Name }).strict(), reply: WorkspaceViewSchema },
  /** Whether a key is stored for the judge's origin (never the key). */
  'judges:key-status': {
    request: z.object({ name: Name }).strict(),
    reply: z.object({ origin: z.string(), stored: z.boolean(), storage: z.enum(['os', 'memory']) }).strict(),
  },
  /** Stores the key for the judge's base URL's origin, in the keychain. */
  'judges:set-key': {
    request: z.object({ name: Name, key: z.string().min(1).max(10_000) }).strict(),
    reply: z.object({ origin: z.string(), stored: z.boolean(), storage: z.enum(['os', 'memory']) }).strict(),
  },
  'judges:clear-key': { request: z.object({ name: Name }).strict(), reply: z.object({ cleared: z.boolean() }).strict() },
  /** Fetches, estimates and (unless a dry run) grades, in the background; progress through `judges:status`. */
  ...jobChannels('judges', { start: JudgeRunStartSchema, status: JudgeRunStatusSchema }),
  'judges:calibration': { request: z.object({ judge: Name, set: Name }).strict(), reply: JudgeCalibrationSchema },
  'experiments:verdict': { request: z.object({ id: Id, judge: Name }).strict(), reply: VerdictHoldSchema },
} as const

export type JudgeChannel = keyof typeof judgeContract
export type JudgeRunStart = z.infer<typeof JudgeRunStartSchema>
export type JudgeRunStatus = z.infer<typeof JudgeRunStatusSchema>
export type JudgeEstimate = z.infer<typeof JudgeEstimateSchema>
export type JudgeFailure = z.infer<typeof JudgeFailureSchema>
export type JudgeCalibration = z.infer<typeof JudgeCalibrationSchema>
export type VerdictHold = z.infer<typeof VerdictHoldSchema>
