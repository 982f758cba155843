import { z } from 'zod'
import { RaterKindSchema, RaterNameSchema } from '../relevance/raters'
import { RunTargetSchema } from '../compare/compare-targets'
import { QueryRequestSchema } from '../query/model'
import { QueryRankingSchema, ScoredSchema } from '../relevance/evaluation'
import { EvaluationHeadSchema, MAX_RANKING_PAGE, RankingPageSchema } from '../relevance/evaluation-head'
import { EvaluationSummarySchema } from '../relevance/evaluation-summary'
import { JUDGMENT_FORMATS, JudgmentGradesSchema } from '../relevance/judgment-files'
import { GradeSchema, ItemIdSchema, MetricSettingsSchema, QuerySetSchema, ScaleSchema, SetQueryIdSchema, SetQuerySchema, MAX_SET_QUERIES, MAX_SET_RATERS } from '../relevance/query-set'
import { MAX_EVAL_DEPTH } from '../relevance/set-template'
import { jobChannels, SetJobStatusSchema } from './job-channels'
import { UploadIdSchema } from './uploads'
import { WorkspaceViewSchema } from './workspace-view'

/**
 * The channels of query sets and their evaluation: the set's edits (the
 * document is main's), ratings, judgment files, and evaluations run in the
 * background and kept. Merged into the one contract (contract.ts).
 */

const Id = z.string().min(1).max(200)
const SetName = z.string().min(1).max(200)

/** What the set dialog edits; a set's judgments stay in main and follow its queries. */
export const SetFormSchema = z
  .object({
    name: SetName,
    /** The template: a saved query by name, or the editor's query (kept as the set's own request on the file connection of `connectionId`). */
    template: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('saved'), query: z.string().min(1).max(200) }).strict(),
      z.object({ kind: z.literal('editor'), connectionId: Id, request: QueryRequestSchema }).strict(),
    ]),
    notes: z.string().max(100_000).optional(),
    scale: ScaleSchema.optional(),
    settings: MetricSettingsSchema.optional(),
    queries: z.array(SetQuerySchema).max(MAX_SET_QUERIES),
  })
  .strict()

/**
 * Bounds of a set form's message, in place of those every message has
 * (dispatch's MESSAGE_LIMITS: 1,000 entries a list, 20,000 values, 10,000
 * characters a text, 1 MiB on the browser host's wire), which would refuse
 * a set the file allows. Checked the same way, before the schema.
 */
export const SET_FORM_MESSAGE = {
  /** The longest list: the set's queries. */
  items: MAX_SET_QUERIES,
  /** Values in all: a query is an object of an id, a text, notes and up to 50 tags; the template's request besides. */
  nodes: MAX_SET_QUERIES * 60 + 20_000,
  /** The longest text: the set's notes (a query's own are 10,000; a template's parameter value as long as a saved query's). */
  textLength: 100_000,
  /** The message as JSON on the browser host's wire: 10,000 queries of long texts, notes and tags, with room to spare. */
  bytes: 32 * 1024 * 1024,
} as const

export const EvalRunStatusSchema = SetJobStatusSchema.extend({
  /** "Demo, config production". */
  targetText: z.string(),
  /** Of the queries done, those that failed to run. */
  failed: z.number().int(),
  /** The kept evaluation, once it has ended (`eval:get`). */
  evaluationId: z.string().nullable(),
})

const Figure = z.number().nullable()

/** `sets:agreement`'s reply: rater-agreement.ts's AgreementReport and disagreements.ts's Disagreements (set-agreement.ts). */
export const SetAgreementSchema = z
  .object({
    raters: z.array(z.object({ rater: RaterNameSchema, kind: RaterKindSchema.nullable(), judgments: z.number().int() }).strict()),
    pairs: z.array(
      z
        .object({
          a: RaterNameSchema,
          b: RaterNameSchema,
          n: z.number().int(),
          agreement: Figure,
          kappa: Figure,
          kappaLinear: Figure,
          kappaQuadratic: Figure,
          reasons: z.object({ agreement: z.string(), kappa: z.string(), kappaLinear: z.string(), kappaQuadratic: z.string() }).partial().strict(),
          confusion: z.array(z.array(z.number().int())),
        })
        .strict(),
    ),
    /** Pairs not sent (set-agreement.ts's MAX_PAIRS_SHOWN): those sharing the fewest items, past the first 300. */
    pairsLeftOut: z.number().int(),
    fleiss: z.object({ n: z.number().int(), raters: z.number().int().nullable(), kappa: Figure, reason: z.string().optional() }).strict(),
    alpha: z
      .object({
        n: z.number().int(),
        nominal: Figure,
        ordinal: Figure,
        interval: Figure,
        reasons: z.object({ nominal: z.string(), ordinal: z.string(), interval: z.string() }).partial().strict(),
      })
      .strict(),
    queries: z.array(z.object({ id: SetQueryIdSchema, n: z.number().int(), alpha: Figure, reason: z.string().optional() }).strict()),
    disagreements: z
      .object({
        steps: z.number().int(),
        total: z.number().int(),
        settled: z.number().int(),
        rows: z.array(
          z
            .object({
              query: SetQueryIdSchema,
              text: z.string(),
              item: ItemIdSchema,
              grades: z.array(z.object({ rater: RaterNameSchema, grade: GradeSchema }).strict()),
              spread: z.number().int(),
              settled: GradeSchema.nullable(),
            })
            .strict(),
        ),
      })
      .strict(),
  })
  .strict()

/** The most (query, item) pairs a What to judge next reply lists. */
export const MAX_JUDGE_NEXT = 1_000

/** A figure now and where judging the unjudged could take it (judge-next.ts's FigureInterval). */
const FigureIntervalSchema = z.object({ current: z.number(), low: z.number(), high: z.number() }).strict()

/** One pair of What to judge next's queue, and why (judge-next.ts's JudgeNextEntry), with the item's name as the evaluation kept it. */
export const JudgeNextEntrySchema = z
  .object({
    query: SetQueryIdSchema,
    text: z.string(),
    item: ItemIdSchema,
    /** What a person recognises the item by, from the kept ranking that has it in its top judgeDepth; null when none has. */
    label: z.string().nullable(),
    ranks: z.array(z.number().int().nullable()),
    priority: z.number(),
    effects: z.array(z.object({ metric: z.string(), other: z.number().int().nullable(), effect: z.number() }).strict()),
    why: z.string(),
  })
  .strict()

/** `eval:judge-next`'s reply: judge-next.ts's EvaluationJudgeNext, its queue cut to `limit`. */
export const EvaluationJudgeNextSchema = z
  .object({
    metrics: z.array(z.string()),
    queries: z.array(
      z.object({ id: SetQueryIdSchema, text: z.string(), unjudged: z.number().int(), figures: z.record(z.string(), FigureIntervalSchema).nullable() }).strict(),
    ),
    means: z.record(z.string(), FigureIntervalSchema.nullable()),
    counted: z.number().int(),
    unjudged: z.number().int(),
    queue: z.array(JudgeNextEntrySchema),
    /** The queue's length before the cut. */
    total: z.number().int(),
    summary: z.string(),
  })
  .strict()

/** `experiments:judge-next`'s reply: judge-next.ts's ExperimentJudgeNext, its queue cut to `limit`. */
export const ExperimentJudgeNextSchema = z
  .object({
    alpha: z.number(),
    verdicts: z.array(
      z
        .object({
          metric: z.string(),
          other: z.number().int(),
          n: z.number().int(),
          delta: FigureIntervalSchema,
          signCanChange: z.boolean(),
          pAdjusted: z.object({ current: z.number(), low: z.number(), high: z.number() }).strict(),
          significant: z.object({ current: z.boolean(), low: z.boolean(), high: z.boolean() }).strict(),
          significanceCanChange: z.boolean(),
          decided: z.boolean(),
        })
        .strict(),
    ),
    queue: z.array(JudgeNextEntrySchema),
    total: z.number().int(),
    summary: z.string(),
  })
  .strict()

/** What to judge next of a kept record: its id, and how many pairs of the queue to list. */
export const JudgeNextRequestSchema = z.object({ id: Id, limit: z.number().int().min(0).max(MAX_JUDGE_NEXT) }).strict()

export const relevanceContract = {
  /** A set whole: its queries and judgments. */
  'sets:get': { request: z.object({ name: SetName }).strict(), reply: QuerySetSchema },
  /** Adds a set, or replaces the one called `previousName`; judgments of queries it no longer has go. */
  'sets:save': { request: z.object({ set: SetFormSchema, previousName: SetName.optional() }).strict(), reply: WorkspaceViewSchema },
  'sets:delete': { request: z.object({ name: SetName }).strict(), reply: WorkspaceViewSchema },
  /** One rating by the window's rater (`sets:rater`), taken at once: `grade` null clears it. */
  'sets:rate': {
    request: z.object({ set: SetName, query: SetQueryIdSchema, item: ItemIdSchema, grade: GradeSchema.nullable() }).strict(),
    reply: WorkspaceViewSchema,
  },
  /** An adjudicated grade (rater "adjudication"), which the metrics use whatever the set's aggregate: `grade` null clears it. */
  'sets:settle': {
    request: z.object({ set: SetName, query: SetQueryIdSchema, item: ItemIdSchema, grade: GradeSchema.nullable() }).strict(),
    reply: WorkspaceViewSchema,
  },
  /** Who the window rates as: the name kept in the preferences (`chosen`), else the OS user name. */
  'sets:rater': { request: z.object({}).strict(), reply: z.object({ name: RaterNameSchema, chosen: z.boolean() }).strict() },
  /**
   * How far a set's raters agree (all but the adjudicator, or those named),
   * and the items whose grades differ by `steps` or more places on the scale
   * (default 2; the widest 200, settled ones only with `settled`). Computed
   * in a worker thread.
   */
  'sets:agreement': {
    request: z
      .object({
        set: SetName,
        raters: z.array(RaterNameSchema).min(1).max(MAX_SET_RATERS).optional(),
        steps: z.number().int().min(1).max(10).optional(),
        settled: z.boolean().optional(),
      })
      .strict(),
    reply: SetAgreementSchema,
  },
  /**
   * Judgments from a Quepid CSV, TREC qrels or RRE ratings file, all or
   * nothing. Main reads the file: in Electron the one its open dialog picks
   * (no `upload`; null when the user cancelled), in the browser host the one
   * the page sent through the upload route (`upload`, its ticket). Its text
   * never travels in a message.
   */
  'sets:import': {
    request: z.object({ set: SetName, upload: UploadIdSchema.optional(), format: z.enum(JUDGMENT_FORMATS).optional() }).strict(),
    reply: z
      .object({ workspace: WorkspaceViewSchema, fileName: z.string(), queries: z.number().int(), judgments: z.number().int(), replaced: z.number().int() })
      .nullable(),
  },
  /**
   * A set's judgments as a file, written by main: in Electron where its save
   * dialog says (null when the user cancelled; `downloadUrl` null), in the
   * browser host a file handed over as a one-time download (`downloadUrl`).
   * Its text never travels in a reply.
   */
  'sets:export': {
    /**
     * `grades`: one grade per query and item, the set's aggregate (the default
     * where the format holds no rater: TREC qrels, RRE; an aggregate between
     * two grades rounded half up) or one rater's. Quepid CSV without it keeps
     * every rater's, a column each.
     */
    request: z.object({ set: SetName, format: z.enum(JUDGMENT_FORMATS), grades: JudgmentGradesSchema.optional() }).strict(),
    reply: z.object({ fileName: z.string(), judgments: z.number().int(), downloadUrl: z.string().nullable() }).nullable(),
  },
  /**
   * Evaluates a set on a target (default: its template's own connection):
   * every query to `depth`, a few at a time. Replies at once; progress through `eval:status`.
   */
  ...jobChannels('eval', {
    start: z
      .object({
        runId: Id,
        set: SetName,
        target: RunTargetSchema.optional(),
        depth: z.number().int().min(1).max(MAX_EVAL_DEPTH),
        /** "ndcg@10,p@10,ap": the metrics; the defaults when left out. */
        metrics: z.string().min(1).max(500).optional(),
        concurrency: z.number().int().min(1).max(16).optional(),
      })
      .strict(),
    status: EvalRunStatusSchema,
  }),
  /** Kept evaluations, newest first (of one set when named). */
  'eval:list': { request: z.object({ set: SetName.optional() }).strict(), reply: z.array(EvaluationSummarySchema) },
  /** A kept evaluation without its rankings (its head: summary, settings, each query's figures, how many rankings); they come in pages (`eval:rankings`). */
  'eval:get': { request: z.object({ id: Id }).strict(), reply: EvaluationHeadSchema },
  /** A page of a kept evaluation's rankings, in its order. */
  'eval:rankings': {
    request: z.object({ id: Id, offset: z.number().int().min(0).max(1_000_000), limit: z.number().int().min(1).max(MAX_RANKING_PAGE) }).strict(),
    reply: RankingPageSchema,
  },
  /** One query's ranking in a kept evaluation; null when the evaluation has none of that query. */
  'eval:ranking': { request: z.object({ id: Id, query: SetQueryIdSchema }).strict(), reply: QueryRankingSchema.nullable() },
  /**
   * A kept evaluation's rankings scored with its set's judgments as they are
   * now (main scores them in the data store's thread: the rankings never
   * travel), under `settings` when given, else the set's own. The kept
   * figures when the set is gone.
   */
  'eval:scored': { request: z.object({ id: Id, settings: MetricSettingsSchema.optional() }).strict(), reply: ScoredSchema },
  /**
   * Probability against grade over a kept evaluation's rankings, by its set's
   * judgments as they are now: the bands, and the highest cutoff keeping
   * `share` of the items graded `threshold` or more (shared/experiments/probability-bands.ts).
   */
  'eval:probability': {
    request: z.object({ id: Id, threshold: z.number().int().min(0).max(100), share: z.number().gt(0).max(1) }).strict(),
    reply: z.object({
      hasProbabilities: z.boolean(),
      bands: z.array(z.object({ from: z.number(), to: z.number(), items: z.number().int(), judged: z.number().int(), meanGrade: z.number().nullable() })),
      cutoff: z.object({ cutoff: z.number(), kept: z.number().int(), relevant: z.number().int(), relevantTotal: z.number().int() }).nullable(),
    }),
  },
  /**
   * What to judge next in a kept evaluation (docs/METRICS.md): each query's
   * figures and the means as intervals (where they could go were the
   * unjudged items of each top judgeDepth judged), and the unjudged (query,
   * item) pairs that could move them most, the first `limit`. From the kept
   * rankings and the set's judgments and settings as they are now, worked
   * out in a worker thread.
   */
  'eval:judge-next': { request: JudgeNextRequestSchema, reply: EvaluationJudgeNextSchema },
  'eval:delete': { request: z.object({ id: Id }).strict(), reply: z.object({ deleted: z.boolean() }) },
  /**
   * A kept evaluation's rankings as a TREC run file, written to a file by
   * main a query at a time: the one chosen in Electron's save dialog (null:
   * cancelled), or a one-time download address in the browser host. Its text
   * never travels in a message.
   */
  'eval:run-file': {
    request: z.object({ id: Id }).strict(),
    reply: z.object({ fileName: z.string(), queries: z.number().int(), downloadUrl: z.string().nullable() }).nullable(),
  },
} as const

export type RelevanceChannel = keyof typeof relevanceContract
export type SetForm = z.infer<typeof SetFormSchema>
export type EvalRunStatus = z.infer<typeof EvalRunStatusSchema>
export type SetAgreementReply = z.infer<typeof SetAgreementSchema>
export type EvaluationJudgeNextReply = z.infer<typeof EvaluationJudgeNextSchema>
export type ExperimentJudgeNextReply = z.infer<typeof ExperimentJudgeNextSchema>
export type JudgeNextEntryReply = z.infer<typeof JudgeNextEntrySchema>
