import { basename } from 'node:path'
import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { DEFAULT_SET_CONCURRENCY } from '../../main/evaluation/run-set'
import { formatBytes } from '../../shared/byte-size'
import { AggregateSchema, DEFAULT_AGGREGATE, type Aggregate } from '../../shared/relevance/grade-aggregate'
import { judgmentFormatOf, MAX_JUDGMENT_FILE_BYTES, parseJudgments } from '../../shared/relevance/judgment-files'
import { deepestK, DEFAULT_METRICS, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import { QUERY_PLACEHOLDER, scaleOf, scaleText, settingsOf, type MetricSettings, type QuerySet } from '../../shared/relevance/query-set'
import { ratersOf } from '../../shared/relevance/raters'
import type { QueryRequest } from '../../shared/query/model'
import { MAX_EVAL_DEPTH, resolveTemplate } from '../../shared/relevance/set-template'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { InputError, stringOption, type OptionValues } from '../command'
import type { Flags } from '../flags'
import type { ConnectionFlags } from '../run-target'
import { InputTooLarge, type CliIo } from '../io'
import { concurrencyOf, connectionFlags, maxWaitOf, readWorkspaceArgument } from './workspace-arguments'

/**
 * The flags `eval` shares between one target and an experiment (--a/--b):
 * the file, the set and its judgments, the metrics and their settings, the
 * depth and the connection; each checked and named when wrong (exit 2).
 */

/** Queries at once: the runner's own bounds (run-set.ts clamps to 16). */
export const MAX_EVAL_CONCURRENCY = 16

/** The shortest depth a run goes to when --depth is not given: the metrics' deepest k, and 10 at least. */
export const MIN_DEFAULT_DEPTH = 10

export function metricsOf(values: OptionValues): MetricSpec[] {
  const text = stringOption(values, 'metrics')
  if (text === undefined) return DEFAULT_METRICS
  const parsed = parseMetrics(text)
  if (!parsed.ok) throw new InputError([`--metrics: ${parsed.message}.`])
  return parsed.metrics
}

/** --depth: a whole number from 1 to MAX_EVAL_DEPTH; by default the deepest k of the metrics (10 at least, MAX_EVAL_DEPTH at most). */
export function depthOf(values: OptionValues, metrics: readonly MetricSpec[]): number {
  const text = stringOption(values, 'depth')
  if (text === undefined) return Math.min(MAX_EVAL_DEPTH, Math.max(deepestK(metrics) ?? 0, MIN_DEFAULT_DEPTH))
  const value = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > MAX_EVAL_DEPTH) {
    throw new InputError([`--depth: "${text}" is not a whole number from 1 to ${MAX_EVAL_DEPTH} (the results each query asks for).`])
  }
  return value
}

/** The most pairs --judge-next lists: more than anyone judges in a sitting, and the output stays a size a terminal takes. */
export const MAX_JUDGE_NEXT = 10_000

/** --judge-next, declared once: eval-command.ts lists it in its help and parseArgs reads it from here. */
export const JUDGE_NEXT_FLAGS = {
  'judge-next': {
    type: 'string',
    value: 'N',
    help: [
      `also print the next N (1 to ${MAX_JUDGE_NEXT}) unjudged (query, item) pairs to judge: those`,
      'that could move a figure most (with --a/--b: a delta whose sign or significance',
      'is not yet decided), each with why; and where each mean (delta) could still go',
      'once the unjudged top k are judged (docs/METRICS.md, "What to judge next")',
    ],
  },
} as const satisfies Flags

/** --judge-next: a whole number from 1 to MAX_JUDGE_NEXT; null when not given. */
export function judgeNextOf(values: OptionValues): number | null {
  const text = stringOption(values, 'judge-next')
  if (text === undefined) return null
  const value = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > MAX_JUDGE_NEXT) {
    throw new InputError([`--judge-next: "${text}" is not a whole number from 1 to ${MAX_JUDGE_NEXT} (the unjudged pairs to list).`])
  }
  return value
}

/** Names quoted and comma-separated, the first 20 of them: what a refusal lists of the sets or raters there are. */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`)
  return `${quoted.slice(0, 20).join(', ')}${quoted.length > 20 ? ', …' : ''}`
}

/** The set's raters, for a refusal that names one it lacks. */
export function ratersListed(set: QuerySet): string {
  const raters = ratersOf(set).map((rater) => rater.name)
  return raters.length === 0 ? 'it has none: no judgments yet' : `its raters: ${quotedList(raters)}`
}

/** --aggregate: a rule AggregateSchema takes; `rater:NAME` only for a rater of the set. */
export function aggregateOf(set: QuerySet, text: string): Aggregate {
  const parsed = AggregateSchema.safeParse(text)
  if (!parsed.success) {
    throw new InputError([
      `--aggregate: "${text}" is not a rule for the grade the metrics use: write mean, median, majority (ties to the lower), max (optimistic), min (pessimistic) or rater:NAME (that rater's grades only).`,
    ])
  }
  const aggregate = parsed.data
  if (aggregate.startsWith('rater:')) {
    const name = aggregate.slice('rater:'.length)
    if (!ratersOf(set).some((rater) => rater.name === name)) throw new InputError([`--aggregate: "${name}" is not a rater of the set "${set.name}" (${ratersListed(set)}).`])
  }
  return aggregate
}

/** The set's settings with --gain, --unjudged, --threshold and --aggregate laid over them, each checked and named when wrong. */
export function settingsFor(set: QuerySet, values: OptionValues): MetricSettings {
  const settings = { ...settingsOf(set) }
  const aggregate = stringOption(values, 'aggregate')
  // Always stated, so the JSON says which grade the figures used even where the set leaves it to the default.
  settings.aggregate = aggregate !== undefined ? aggregateOf(set, aggregate) : (settings.aggregate ?? DEFAULT_AGGREGATE)
  const gain = stringOption(values, 'gain')
  if (gain !== undefined) {
    if (gain !== 'exponential' && gain !== 'linear') throw new InputError([`--gain: "${gain}" is not a gain: write exponential (2^g − 1) or linear (g).`])
    settings.gain = gain
  }
  const unjudged = stringOption(values, 'unjudged')
  if (unjudged !== undefined) {
    if (unjudged !== 'zero' && unjudged !== 'skip') {
      throw new InputError([`--unjudged: "${unjudged}" is not a choice: write zero (an unjudged item counts as not relevant) or skip (it is taken out of the ranking).`])
    }
    settings.unjudged = unjudged
  }
  const threshold = stringOption(values, 'threshold')
  if (threshold !== undefined) {
    const value = Number(threshold.trim())
    if (!/^\d+$/.test(threshold.trim()) || value > 100) {
      throw new InputError([`--threshold: "${threshold}" is not a grade: write a whole number from 0 to 100 (an item is relevant from this grade up).`])
    }
    const scale = scaleOf(set)
    const top = scale[scale.length - 1]!.grade
    if (value > top) {
      throw new InputError([`--threshold: ${value} is above the highest grade of the set's scale (${scaleText(scale)}), so no item could be relevant.`])
    }
    settings.threshold = value
  }
  return settings
}

/**
 * The set --set names; without it the file's first (`eval`), or its only one
 * (`only`: `agreement`, where taking the first of several would report on a
 * set the person may not have meant).
 */
export function chooseSet(workspace: Workspace, name: string | undefined, fileName: string, { verb = 'evaluate', only = false } = {}): QuerySet {
  const sets = workspace.sets ?? []
  if (sets.length === 0) {
    throw new InputError([
      `${fileName}: the workspace has no query sets ("sets") to ${verb}.`,
      `Add one in the app (Evaluation, New set), or write one into the file's "sets": a "name", a template ("query": a saved query whose search text is ${QUERY_PLACEHOLDER}), "queries": [{ "id": "q1", "text": "paris" }, …] and "judgments": [{ "query": "q1", "item": "2988507", "grade": 3 }, …].`,
    ])
  }
  const names = sets.map((set) => set.name)
  if (name === undefined) {
    if (only && sets.length > 1) throw new InputError([`--set: ${fileName} has ${sets.length} query sets; name one with --set (it has: ${quotedList(names)}).`])
    return sets[0]!
  }
  const found = sets.find((set) => set.name === name)
  if (!found) throw new InputError([`--set: "${name}" is not a query set of ${fileName} (it has: ${quotedList(names)}).`])
  return found
}

/** The set with the file's judgments in place of its own, and the queries the file names that it lacks added, for this run only. */
async function withJudgmentFile(set: QuerySet, path: string, io: CliIo): Promise<{ set: QuerySet; judgments: number; newQueries: number }> {
  let text: string
  try {
    text = await io.readInput(path, MAX_JUDGMENT_FILE_BYTES)
  } catch (error) {
    if (error instanceof InputTooLarge) {
      throw new InputError([`--judgments: "${path}" holds more than ${formatBytes(MAX_JUDGMENT_FILE_BYTES)}, more than a judgments file may; split it into smaller files.`])
    }
    throw new InputError([`--judgments: "${path}" cannot be read: ${(error as Error).message}`])
  }
  const name = path === '-' ? 'standard input' : basename(path)
  const format = judgmentFormatOf(name, text)
  if (format === null) {
    throw new InputError([
      `--judgments: "${path}" is not a judgments file this command reads: a Quepid CSV (query,docid,rating; .csv), TREC qrels (qid iter docid rel; .qrels or .txt) or RRE ratings (.json).`,
    ])
  }
  // The file's grades are its rater's, named as an import in the window is: by the file's name (`--aggregate rater:other.qrels`).
  const parsed = parseJudgments(format, text, set, name.slice(0, 200))
  if (!parsed.ok) throw new InputError([`--judgments: "${path}" (read as ${format}) was not used:`, ...parsed.message.split('\n').map((line) => `  ${line}`)])
  const { newQueries, judgments } = parsed.import
  return { set: { ...set, queries: [...set.queries, ...newQueries], judgments }, judgments: judgments.length, newQueries: newQueries.length }
}

/** Everything an evaluation needs that the flags and the file give, checked before anything is sent. */
export interface EvalPlan {
  workspace: Workspace
  fileName: string
  set: QuerySet
  /** The set's template, and the file connection it belongs to (null: none named). */
  request: QueryRequest
  templateConnection: string | null
  metrics: MetricSpec[]
  depth: number
  settings: MetricSettings
  concurrency: number
  maxWait: number
  flags: ConnectionFlags
  /** "Judgments from … in place of the set's own for this run", when --judgments was given. */
  judgmentsNote: string | null
  /** --judge-next: how many pairs to list; null when not asked. */
  judgeNext: number | null
}

export async function evalPlan(path: string, values: OptionValues, io: CliIo): Promise<EvalPlan> {
  const { workspace, fileName } = await readWorkspaceArgument(path, readWorkspaceFile)
  let set = chooseSet(workspace, stringOption(values, 'set'), fileName)
  const metrics = metricsOf(values)
  const depth = depthOf(values, metrics)
  const judgeNext = judgeNextOf(values)
  const concurrency = concurrencyOf(values, DEFAULT_SET_CONCURRENCY, MAX_EVAL_CONCURRENCY)
  const maxWait = maxWaitOf(values)
  const flags = connectionFlags(values)
  const judgmentsPath = stringOption(values, 'judgments')
  const fromFile = judgmentsPath === undefined ? null : await withJudgmentFile(set, judgmentsPath, io)
  if (fromFile) set = fromFile.set
  // After --judgments: `--aggregate rater:NAME` names a rater of the judgments this run uses.
  const settings = settingsFor(set, values)
  if (set.queries.length === 0) throw new InputError([`--set: the query set "${set.name}" of ${fileName} has no queries to evaluate: add some first.`])
  const template = resolveTemplate(workspace, set)
  if (template.error !== null || template.request === null) throw new InputError([`--set: "${set.name}" cannot run: ${template.error ?? 'it has no template.'}`])
  const judgmentsNote = fromFile
    ? `Judgments from ${judgmentsPath} (${fromFile.judgments} judgment${fromFile.judgments === 1 ? '' : 's'}${fromFile.newQueries > 0 ? `, ${fromFile.newQueries} quer${fromFile.newQueries === 1 ? 'y' : 'ies'} the set lacks` : ''}), in place of the set's own for this run`
    : null
  return { workspace, fileName, set, request: template.request, templateConnection: template.connection ?? null, metrics, depth, settings, concurrency, maxWait, flags, judgmentsNote, judgeNext }
}
