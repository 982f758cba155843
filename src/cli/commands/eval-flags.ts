import { basename } from 'node:path'
import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { DEFAULT_SET_CONCURRENCY } from '../../main/evaluation/run-set'
import { formatBytes } from '../../shared/byte-size'
import { judgmentFormatOf, MAX_JUDGMENT_FILE_BYTES, parseJudgments } from '../../shared/relevance/judgment-files'
import { deepestK, DEFAULT_METRICS, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import { QUERY_PLACEHOLDER, scaleOf, scaleText, settingsOf, type MetricSettings, type QuerySet } from '../../shared/relevance/query-set'
import type { QueryRequest } from '../../shared/query/model'
import { MAX_EVAL_DEPTH, resolveTemplate } from '../../shared/relevance/set-template'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { InputError, stringOption, type OptionValues } from '../command'
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

/** The set's settings with --gain, --unjudged and --threshold laid over them, each checked and named when wrong. */
export function settingsFor(set: QuerySet, values: OptionValues): MetricSettings {
  const settings = { ...settingsOf(set) }
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

/** The set --set names, or the file's first. */
function chooseSet(workspace: Workspace, name: string | undefined, fileName: string): QuerySet {
  const sets = workspace.sets ?? []
  if (sets.length === 0) {
    throw new InputError([
      `${fileName}: the workspace has no query sets ("sets") to evaluate.`,
      `Add one in the app (Evaluation, New set), or write one into the file's "sets": a "name", a template ("query": a saved query whose search text is ${QUERY_PLACEHOLDER}), "queries": [{ "id": "q1", "text": "paris" }, …] and "judgments": [{ "query": "q1", "item": "2988507", "grade": 3 }, …].`,
    ])
  }
  if (name === undefined) return sets[0]!
  const found = sets.find((set) => set.name === name)
  if (!found) {
    const names = sets.map((set) => `"${set.name}"`)
    throw new InputError([`--set: "${name}" is not a query set of ${fileName} (it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}).`])
  }
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
  const parsed = parseJudgments(format, text, set, `--judgments ${name}`.slice(0, 200))
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
}

export async function evalPlan(path: string, values: OptionValues, io: CliIo): Promise<EvalPlan> {
  const { workspace, fileName } = await readWorkspaceArgument(path, readWorkspaceFile)
  let set = chooseSet(workspace, stringOption(values, 'set'), fileName)
  const metrics = metricsOf(values)
  const depth = depthOf(values, metrics)
  const settings = settingsFor(set, values)
  const concurrency = concurrencyOf(values, DEFAULT_SET_CONCURRENCY, MAX_EVAL_CONCURRENCY)
  const maxWait = maxWaitOf(values)
  const flags = connectionFlags(values)
  const judgmentsPath = stringOption(values, 'judgments')
  const fromFile = judgmentsPath === undefined ? null : await withJudgmentFile(set, judgmentsPath, io)
  if (fromFile) set = fromFile.set
  if (set.queries.length === 0) throw new InputError([`--set: the query set "${set.name}" of ${fileName} has no queries to evaluate: add some first.`])
  const template = resolveTemplate(workspace, set)
  if (template.error !== null || template.request === null) throw new InputError([`--set: "${set.name}" cannot run: ${template.error ?? 'it has no template.'}`])
  const judgmentsNote = fromFile
    ? `Judgments from ${judgmentsPath} (${fromFile.judgments} judgment${fromFile.judgments === 1 ? '' : 's'}${fromFile.newQueries > 0 ? `, ${fromFile.newQueries} quer${fromFile.newQueries === 1 ? 'y' : 'ies'} the set lacks` : ''}), in place of the set's own for this run`
    : null
  return { workspace, fileName, set, request: template.request, templateConnection: template.connection ?? null, metrics, depth, settings, concurrency, maxWait, flags, judgmentsNote }
}
