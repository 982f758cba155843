import { basename, resolve } from 'node:path'
import { evaluateSet } from '../../main/evaluation/evaluate-set'
import { DEFAULT_SET_CONCURRENCY } from '../../main/evaluation/run-set'
import { writeFileAtomic } from '../../main/storage/atomic-file'
import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import type { RunTarget as TargetSpec } from '../../shared/compare/compare-targets'
import { slug } from '../../shared/export/file-name'
import { ExplorerError } from '../../shared/ipc/errors'
import type { Evaluation, QueryScores } from '../../shared/relevance/evaluation'
import { formatRunFile, judgmentFormatOf, parseJudgments } from '../../shared/relevance/judgment-files'
import { deepestK, DEFAULT_METRICS, metricKey, metricLabel, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import { QUERY_PLACEHOLDER, scaleOf, scaleText, settingsOf, type MetricSettings, type QuerySet } from '../../shared/relevance/query-set'
import { MAX_EVAL_DEPTH, resolveTemplate } from '../../shared/relevance/set-template'
import { xmlAttribute, xmlText } from '../../shared/text/xml-escape'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command, type OptionValues } from '../command'
import type { CliIo } from '../io'
import { openRunTarget, overridesOf } from '../run-target'
import { writeJson } from '../terminal-io'
import { EXIT_FAILED } from './test-command'
import { concurrencyOf, CONNECTION_DETAILS, CONNECTION_OPTIONS, connectionFlags, maxWaitOf, readWorkspaceArgument, targetText } from './workspace-arguments'

/** Queries at once: the runner's own bounds (run-set.ts clamps to 16). */
const MAX_EVAL_CONCURRENCY = 16

/** The shortest depth a run goes to when --depth is not given: the metrics' deepest k, and 10 at least. */
const MIN_DEFAULT_DEPTH = 10

// ——— Flags ———


function metricsOf(values: OptionValues): MetricSpec[] {
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
    text = await io.readInput(path)
  } catch (error) {
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

// ——— What it prints ———

/** "exponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 100, k for unjudged 10". */
export function settingsText(settings: MetricSettings, depth: number, judgeDepth: number): string {
  const gain = settings.gain === 'exponential' ? 'exponential gain (2^g − 1)' : 'linear gain (g)'
  const unjudged = settings.unjudged === 'zero' ? 'unjudged as not relevant' : 'unjudged skipped (taken out of the ranking)'
  return `${gain}, ${unjudged}, relevant from grade ${settings.threshold}, depth ${depth}, k for unjudged ${judgeDepth}`
}

/** A metric whose k is deeper than the run went: its figure is over what was evaluated, and says so. */
function belowK(metrics: readonly MetricSpec[], depth: number): string[] {
  return metrics
    .filter((spec) => spec.k !== null && spec.k > depth)
    .map((spec) => `${metricLabel(spec)} (depth ${depth} is below k: the figure is over the ${depth} evaluated)`)
}

const figure = (value: number | null | undefined) => (value === null || value === undefined ? '–' : value.toFixed(4))

/** Cut to `max` characters (whole code points), with … where it was cut. */
function clip(text: string, max: number): string {
  const points = [...text]
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text
}

const TEXT_WIDTH = 30

/** The table of figures: a row per query, then the means. */
export function tableLines(evaluation: Evaluation, metrics: readonly MetricSpec[]): string[] {
  const { scored, judgeDepth } = evaluation
  const keys = metrics.map(metricKey)
  const unjudgedHeader = `unjudged@${judgeDepth}`
  const header = ['id', 'query', ...metrics.map(metricLabel), unjudgedHeader]
  const noteOf = (query: QueryScores) => (query.error !== null ? `failed: ${clip(query.error, 120)}` : query.scores === null ? 'no judgments' : '')
  const rows = scored.queries.map((query) => [
    query.id,
    clip(query.text, TEXT_WIDTH),
    ...keys.map((key) => figure(query.scores?.[key])),
    query.error !== null ? '–' : String(query.unjudged),
    noteOf(query),
  ])
  const mean = ['mean', `(${scored.counted} quer${scored.counted === 1 ? 'y' : 'ies'})`, ...keys.map((key) => figure(scored.means[key])), `Σ ${scored.unjudged}`, '']
  const all = [header, ...rows, mean]
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...row[column]!].length)))
  // Text left, figures right; the note (last, unpadded) after them.
  const line = (row: string[]) =>
    row
      .map((cell, column) => {
        if (column >= header.length) return cell
        const pad = widths[column]! - [...cell].length
        return column < 2 ? cell + ' '.repeat(pad) : ' '.repeat(pad) + cell
      })
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line), line(mean)]
}

function queryLine(ranking: Evaluation['rankings'][number]): string {
  const ms = `${Math.round(ranking.durationMs)} ms`
  if (ranking.error !== null) return `✗ ${ranking.id} ${clip(ranking.text, 60)}: failed: ${ranking.error} (${ms})`
  return `✓ ${ranking.id} ${clip(ranking.text, 60)}: ${ranking.items.length} result${ranking.items.length === 1 ? '' : 's'} (${ms})`
}

/** The evaluation as `--json` prints it. */
export function evaluationJson(evaluation: Evaluation, workspace: string): unknown {
  const { scored } = evaluation
  return {
    workspace,
    set: evaluation.set,
    target: evaluation.targetText,
    settings: evaluation.settings,
    depth: evaluation.depth,
    judgeDepth: evaluation.judgeDepth,
    metrics: scored.metrics,
    queries: scored.queries.map(({ id, text, scores, unjudged, returned, error }) => ({ id, text, scores, unjudged, returned, error })),
    means: scored.means,
    counted: scored.counted,
    failed: scored.failed,
    unjudgedQueries: scored.unjudgedQueries,
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

/** JUnit XML: a testcase per query, a failure for a query that failed to run, the figures of the others in system-out. */
export function evaluationJUnit(evaluation: Evaluation, metrics: readonly MetricSpec[], settings: string): string {
  const { scored } = evaluation
  const suite = `query-explorer.eval.${evaluation.set}`
  const tests = scored.queries.length
  const time = seconds(evaluation.durationMs)
  const meanLines = metrics.map((spec) => `${metricLabel(spec)} ${figure(scored.means[metricKey(spec)])}`)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suite)}" tests="${tests}" failures="${scored.failed}" errors="0" time="${time}">`,
    `  <testsuite name="${xmlAttribute(`${evaluation.set} on ${evaluation.targetText}`)}" tests="${tests}" failures="${scored.failed}" errors="0" skipped="0" time="${time}">`,
    `    <system-out>${xmlText([`mean over ${scored.counted} of ${tests} queries`, ...meanLines, settings].join('\n'))}</system-out>`,
  ]
  scored.queries.forEach((query, index) => {
    const ranking = evaluation.rankings[index]
    const open = `    <testcase name="${xmlAttribute(`${query.id} ${query.text}`)}" classname="${xmlAttribute(suite)}" time="${seconds(ranking?.durationMs ?? 0)}">`
    lines.push(open)
    if (query.error !== null) {
      lines.push(`      <failure message="${xmlAttribute(query.error.split('\n')[0] ?? '')}" type="QueryFailed">${xmlText(query.error)}</failure>`)
    } else {
      const figures =
        query.scores === null
          ? ['no judgments: left out of the means']
          : metrics.map((spec) => `${metricLabel(spec)} ${figure(query.scores![metricKey(spec)])}`)
      const out = [...figures, `unjudged in top ${evaluation.judgeDepth}: ${query.unjudged}`, `returned: ${query.returned}`]
      lines.push(`      <system-out>${xmlText(out.join('\n'))}</system-out>`)
    }
    lines.push('    </testcase>')
  })
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}

/**
 * `eval <workspace.qxw.json>`: evaluates one of the workspace's query sets
 * on a connection through the window's own code (evaluateSet, scoreRankings),
 * so its figures are the Evaluation view's; prints a line per query, a
 * table and the means (or JSON), and can write JUnit and a TREC run file.
 * Exits 0 when every query ran, 1 when some failed to run, 2 on bad input.
 */
export const evalCommand: Command = {
  name: 'eval',
  summary: "evaluate a workspace's query set on a connection: nDCG, P, AP, RR, ERR, Recall per query and their means",
  usage:
    '<workspace.qxw.json> [--set NAME] [--judgments FILE] [--metrics LIST] [--gain exponential|linear] [--unjudged zero|skip] [--threshold G] [--depth N] [--concurrency N] [--connection NAME] [--config NAME] [--api NAME] [--json] [--junit FILE] [--trec-run FILE]',
  details: [
    '<workspace.qxw.json>   the workspace file holding the query set ("sets")',
    '--set NAME             the query set to evaluate (default: the file\'s first)',
    '--judgments FILE       judgments from a Quepid CSV (.csv), TREC qrels (.qrels, .txt) or RRE ratings',
    '                       (.json) file, in place of the set\'s own for this run; queries it names that',
    '                       the set lacks run too. The workspace file is not changed.',
    `--metrics LIST         the metrics, comma-separated (default ${DEFAULT_METRICS.map(metricKey).join(',')});`,
    '                       names: ndcg, p, ap, rr, err, recall, coverage, with @k where they take a depth',
    '--gain exponential|linear',
    '                       how a grade counts: 2^g − 1 or g (default: the set\'s, else exponential)',
    '--unjudged zero|skip   an unjudged item counts as not relevant, or is taken out of the ranking',
    '                       (default: the set\'s, else zero)',
    '--threshold G          relevant from grade G, for P, AP, RR and Recall (default: the set\'s, else 1)',
    `--depth N              results each query asks for, 1 to ${MAX_EVAL_DEPTH} (default: the deepest k of the metrics,`,
    `                       ${MIN_DEFAULT_DEPTH} at least); a metric whose k is deeper is over the N evaluated, and says so`,
    `--concurrency N        queries run at once (default ${DEFAULT_SET_CONCURRENCY}, at most ${MAX_EVAL_CONCURRENCY})`,
    ...CONNECTION_DETAILS.map((line) =>
      line
        .replace('a connection of the workspace file, by name or id (default: its first)', "a connection of the file, by name or id (default: the set's template's)")
        .replace('run every case with this configuration', 'run every query with this configuration')
        .replace('run every case against this API', 'run every query against this API'),
    ),
    '--json                 print one JSON object (per query: id, text, scores, unjudged, returned, error; the means)',
    '--junit FILE           also write JUnit XML: a testcase per query, failed when the query failed to run',
    '--trec-run FILE        also write the rankings as a TREC run file (qid Q0 docid rank score tag);',
    '                       queries that failed are left out',
    'Exit status: 0 every query ran (whatever its figures), 1 some query failed to run (its error is',
    'printed; the others are scored), 2 bad input (file, set, flag, judgments file, connection, secret,',
    'or a run file that cannot be written).',
  ],
  options: {
    ...CONNECTION_OPTIONS,
    set: { type: 'string' },
    judgments: { type: 'string' },
    metrics: { type: 'string' },
    gain: { type: 'string' },
    unjudged: { type: 'string' },
    threshold: { type: 'string' },
    depth: { type: 'string' },
    concurrency: { type: 'string' },
    json: { type: 'boolean' },
    junit: { type: 'string' },
    'trec-run': { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const { workspace, fileName } = await readWorkspaceArgument(positionals[0]!, readWorkspaceFile)
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
    const request = template.request

    const json = values.json === true
    const say = (line: string) => (json ? io.err(line) : io.out(line))
    // Like the window, the set runs on its template's connection unless --connection names another.
    const target = await openRunTarget(workspace, { ...flags, connection: flags.connection ?? template.connection ?? undefined }, io.env ?? process.env, fileName, io.clock)
    const overrides = overridesOf({ config: stringOption(values, 'config'), api: stringOption(values, 'api') })
    const shown = {
      config: overrides.config ?? request.options.config,
      api: overrides.api ?? (request.api !== target.connection.api ? request.api : undefined),
    }
    const label = targetText(target.label, shown)
    // Every query runs on this one connection, so it asks that connection's workspace (--workspace moves it).
    overrides.workspace = target.connection.workspace
    const targetSpec: TargetSpec = { connectionId: target.connection.id, ...(overrides.config ? { config: overrides.config } : {}), ...(overrides.api ? { api: overrides.api } : {}) }
    try {
      try {
        await target.warmUp(say, maxWait)
      } catch (error) {
        if (error instanceof ExplorerError) throw new InputError([`${target.connection.name}: ${error.message}`])
        throw error
      }
      if (!json) {
        const count = set.queries.length
        say(`Evaluating "${set.name}" of ${fileName} (${count} quer${count === 1 ? 'y' : 'ies'}) on ${label}, to depth ${depth}`)
        if (fromFile) {
          say(`Judgments from ${judgmentsPath} (${fromFile.judgments} judgment${fromFile.judgments === 1 ? '' : 's'}${fromFile.newQueries > 0 ? `, ${fromFile.newQueries} quer${fromFile.newQueries === 1 ? 'y' : 'ies'} the set lacks` : ''}), in place of the set's own for this run`)
        }
      }
      const evaluation = await evaluateSet({
        runner: target.runner,
        target: target.target,
        targetSpec,
        targetText: label,
        overrides,
        workspaceName: fileName.replace(/\.qxw\.json$/, ''),
        set,
        template: request,
        metrics,
        settings,
        depth,
        concurrency,
        runId: 'cli-eval',
        onQuery: (ranking) => {
          if (!json) say(queryLine(ranking))
        },
      })
      const { scored } = evaluation
      const settingsLine = settingsText(settings, depth, evaluation.judgeDepth)
      if (json) {
        writeJson(io.out, JSON.stringify(evaluationJson(evaluation, fileName), null, 2))
      } else {
        say('')
        for (const line of tableLines(evaluation, metrics)) say(line)
        say('')
        say(settingsLine)
        for (const line of belowK(metrics, depth)) say(line)
        say(`${scored.counted} of ${scored.queries.length} queries have judgments; ${scored.failed} failed`)
      }
      const junit = stringOption(values, 'junit')
      if (junit !== undefined) {
        await writeFileAtomic(resolve(junit), evaluationJUnit(evaluation, metrics, settingsLine))
        say(`JUnit report: ${junit}`)
      }
      const trecRun = stringOption(values, 'trec-run')
      if (trecRun !== undefined) {
        const ran = evaluation.rankings.filter((ranking) => ranking.error === null).map((ranking) => ({ queryId: ranking.id, items: ranking.items }))
        let text: string
        try {
          text = formatRunFile(ran, slug(label) || 'query-explorer')
        } catch (error) {
          throw new InputError([`--trec-run: ${(error as Error).message} Nothing was written to ${trecRun}.`])
        }
        await writeFileAtomic(resolve(trecRun), text)
        say(`TREC run file: ${trecRun} (${ran.length} quer${ran.length === 1 ? 'y' : 'ies'})`)
      }
      return scored.failed === 0 ? EXIT_OK : EXIT_FAILED
    } finally {
      await target.close()
    }
  },
}
