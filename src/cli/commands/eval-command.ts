import { evaluateSet } from '../../main/evaluation/evaluate-set'
import { DEFAULT_SET_CONCURRENCY } from '../../main/evaluation/run-set'
import type { RunTarget as TargetSpec } from '../../shared/compare/compare-targets'
import { DEFAULT_ALPHA } from '../../shared/experiments/experiment'
import { DEFAULT_METRICS, metricKey } from '../../shared/relevance/metrics'
import { MAX_EVAL_DEPTH } from '../../shared/relevance/set-template'
import { gradeSourcesOf } from '../../shared/relevance/settings-text'
import { EXIT_OK, stringOption, type Command, type OptionValues } from '../command'
import type { CliIo } from '../io'
import { describedAs, withFlags } from '../flags'
import { checkOutputPath, writeOutput } from '../output-files'
import { openRunTarget, overridesOf, warmedUp } from '../run-target'
import { writeJson } from '../terminal-io'
import { runEvalExperiment, sideRunPath } from './eval-experiment'
import { evalPlan, JUDGE_NEXT_FLAGS, MAX_EVAL_CONCURRENCY, MIN_DEFAULT_DEPTH, type EvalPlan } from './eval-flags'
import { experimentFlagsOf } from './eval-gates'
import { evaluationJudgeNext, evaluationJudgeNextJson, evaluationJudgeNextLines } from './eval-judge-next'
import { belowK, evaluationJson, evaluationJUnit, queryLine, settingsText, tableLines, writeTrecRun } from './eval-output'
import { EXIT_FAILED } from './test-command'
import { CONNECTION_FLAGS, CONNECTION_NOTES, targetText } from './workspace-arguments'

/**
 * `eval <workspace.qxw.json>`: evaluates one of the workspace's query sets
 * on a connection through the window's own code (evaluateSet, scoreRankings),
 * so its figures are the Evaluation view's; prints a line per query, a
 * table and the means (or JSON), and can write JUnit and a TREC run file.
 * Exits 0 when every query ran, 1 when some failed to run, 2 on bad input.
 * With --a and --b it is an experiment (eval-experiment.ts): both sides,
 * compared query by query, with release gates.
 */
export const evalCommand: Command = {
  name: 'eval',
  summary: "evaluate a workspace's query set (nDCG, P, AP, RR, ERR, Recall), or compare two targets on it and gate a release",
  usage:
    '<workspace.qxw.json> [--set NAME] [--judgments FILE] [--metrics LIST] [--gain exponential|linear] [--unjudged zero|skip] [--threshold G] [--aggregate RULE] [--depth N] [--concurrency N] [--connection NAME] [--config NAME] [--api NAME] [--a SPEC --b SPEC [--attribution] [--gate METRIC:MARGIN]… [--alpha A]] [--judge-next N] [--json] [--junit FILE] [--trec-run FILE]',
  ...withFlags([
    '<workspace.qxw.json>   the workspace file holding the query set ("sets")',
    {
      set: { type: 'string', value: 'NAME', help: "the query set to evaluate (default: the file's first)" },
      judgments: {
        type: 'string',
        value: 'FILE',
        help: [
          'judgments from a Quepid CSV (.csv), TREC qrels (.qrels, .txt) or RRE ratings',
          "(.json) file, in place of the set's own for this run; queries it names that",
          'the set lacks run too. The workspace file is not changed.',
        ],
      },
      metrics: {
        type: 'string',
        value: 'LIST',
        help: [`the metrics, comma-separated (default ${DEFAULT_METRICS.map(metricKey).join(',')});`, 'names: ndcg, p, ap, rr, err, recall, coverage, with @k where they take a depth'],
      },
      gain: { type: 'string', value: 'exponential|linear', help: "how a grade counts: 2^g − 1 or g (default: the set's, else exponential)" },
      unjudged: { type: 'string', value: 'zero|skip', help: ['an unjudged item counts as not relevant, or is taken out of the ranking', "(default: the set's, else zero)"] },
      threshold: { type: 'string', value: 'G', help: "relevant from grade G, for P, AP, RR and Recall (default: the set's, else 1)" },
      aggregate: {
        type: 'string',
        value: 'RULE',
        help: [
          'the grade the metrics use where several raters graded an item: mean, median,',
          'majority (ties to the lower), max (optimistic), min (pessimistic) or rater:NAME',
          "(that rater's grades only); a settled grade always wins (default: the set's, else mean)",
        ],
      },
      depth: {
        type: 'string',
        value: 'N',
        help: [
          `results each query asks for, 1 to ${MAX_EVAL_DEPTH} (default: the deepest k of the metrics,`,
          `${MIN_DEFAULT_DEPTH} at least); a metric whose k is deeper is over the N evaluated, and says so`,
        ],
      },
      concurrency: { type: 'string', value: 'N', help: `queries run at once (default ${DEFAULT_SET_CONCURRENCY}, at most ${MAX_EVAL_CONCURRENCY})` },
    },
    describedAs(CONNECTION_FLAGS, {
      connection: "a connection of the file, by name or id (default: the set's template's)",
      config: 'run every query with this configuration',
      api: 'run every query against this API',
    }),
    ...CONNECTION_NOTES,
    {
      a: {
        type: 'string',
        term: '--a SPEC, --b SPEC',
        help: [
          'an experiment: the set on two sides, A the baseline, each as compare takes it',
          '(connection, config, api, version as key=value pairs; e.g. --a config=default',
          "--b config=production); --connection, --config and --api are both sides' defaults.",
          'Prints per metric both means, the delta B − A and its interval, wins, ties,',
          "losses, the paired randomization test's p and its Holm adjustment (docs/METRICS.md)",
        ],
      },
      b: { type: 'string' },
      attribution: { type: 'boolean', help: ["with --a/--b: also evaluate each prefix of the template on A's target and print", "each prefix's means and the change each step makes"] },
      gate: {
        type: 'string',
        multiple: true,
        value: 'METRIC:MARGIN',
        help: [
          "with --a/--b, repeatable: fails (exit 1) when B's mean is below A's by more",
          'than MARGIN (e.g. ndcg@10:-0.01) and the difference is significant; a margin',
          'above 0 asks B to improve by at least that, significantly. The metric must be',
          'among --metrics',
        ],
      },
      alpha: { type: 'string', value: 'A', help: `with --a/--b: the significance level, between 0 and 1 (default ${DEFAULT_ALPHA})` },
      ...JUDGE_NEXT_FLAGS,
      json: {
        type: 'boolean',
        help: [
          'print one JSON object (per query: id, text, scores, unjudged, returned, error;',
          'the means; with --a/--b: the sides, comparisons, per-query deltas, failures, gates;',
          'with --judge-next: judgeNext, its queue, summary and intervals)',
        ],
      },
      junit: {
        type: 'string',
        value: 'FILE',
        help: ['also write JUnit XML: a testcase per query, failed when the query failed to run', '(on a side); with --a/--b also a testcase per gate, failed when the gate fails'],
      },
      'trec-run': {
        type: 'string',
        value: 'FILE',
        help: [
          'also write the rankings as a TREC run file (qid Q0 docid rank score tag);',
          "queries that failed are left out. With --a/--b: A's to FILE with .a before its",
          "extension, B's with .b (runs/x.run: runs/x.a.run and runs/x.b.run)",
        ],
      },
    },
    'Exit status: 0 every query ran (whatever its figures) and every gate passed, 1 some query failed to',
    'run (its error is printed; the others are scored) or a gate failed, 2 bad input (file, set, flag,',
    'judgments file, connection, secret, side, gate, or a --junit or --trec-run file that cannot be',
    'written: a folder, or where no file can be made, found before the first query is sent).',
  ]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const plan = await evalPlan(positionals[0]!, values, io)
    const experiment = experimentFlagsOf(values, plan.metrics)
    // The files asked for are known writable before the first query is sent.
    const junit = stringOption(values, 'junit')
    if (junit !== undefined) await checkOutputPath('--junit', junit)
    const trecRun = stringOption(values, 'trec-run')
    if (trecRun !== undefined) {
      for (const path of experiment ? [sideRunPath(trecRun, 'a'), sideRunPath(trecRun, 'b')] : [trecRun]) await checkOutputPath('--trec-run', path)
    }
    return experiment ? runEvalExperiment(plan, experiment, values, io) : evaluateOne(plan, values, io)
  },
}

/** One target: the set's template's connection unless --connection names another, with --config and --api. */
async function evaluateOne(plan: EvalPlan, values: OptionValues, io: CliIo): Promise<number> {
  const { workspace, fileName, set, request, metrics, depth, settings, flags } = plan
  const json = values.json === true
  const say = (line: string) => (json ? io.err(line) : io.out(line))
  // Like the window, the set runs on its template's connection unless --connection names another.
  const target = await openRunTarget(workspace, { ...flags, connection: flags.connection ?? plan.templateConnection ?? undefined }, io.env ?? process.env, fileName, io.clock, io.secrets)
  const overrides = overridesOf({ config: stringOption(values, 'config'), api: stringOption(values, 'api') })
  const shown = {
    config: overrides.config ?? request.options.config,
    api: overrides.api ?? (request.api !== target.connection.api ? request.api : undefined),
  }
  // The evaluation is named as the window names it (the connection, then API and config), so that its JSON, JUnit and
  // run file's tag are the window's for the same evaluation; the first line says where it ran (the embedded demo, say).
  const label = targetText(target.connection.name, shown)
  // Every query runs on this one connection, so it asks that connection's workspace (--workspace moves it).
  overrides.workspace = target.connection.workspace
  const targetSpec: TargetSpec = { connectionId: target.connection.id, ...(overrides.config ? { config: overrides.config } : {}), ...(overrides.api ? { api: overrides.api } : {}) }
  try {
    await warmedUp(target, say, plan.maxWait)
    if (!json) {
      const count = set.queries.length
      say(`Evaluating "${set.name}" of ${fileName} (${count} quer${count === 1 ? 'y' : 'ies'}) on ${targetText(target.label, shown)}, to depth ${depth}`)
      if (plan.judgmentsNote) say(plan.judgmentsNote)
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
      concurrency: plan.concurrency,
      runId: 'cli-eval',
      onQuery: (ranking) => {
        if (!json) say(queryLine(ranking))
      },
    })
    const { scored } = evaluation
    const settingsLine = settingsText(settings, depth, evaluation.judgeDepth, gradeSourcesOf(set))
    const judgeNext = plan.judgeNext === null ? null : evaluationJudgeNext(evaluation, set, metrics, plan.judgeNext)
    if (json) {
      const report = evaluationJson(evaluation, fileName)
      writeJson(io.out, JSON.stringify(judgeNext ? { ...report, judgeNext: evaluationJudgeNextJson(judgeNext) } : report, null, 2))
    } else {
      say('')
      for (const line of tableLines(evaluation, metrics)) say(line)
      say('')
      say(settingsLine)
      for (const line of belowK(metrics, depth)) say(line)
      say(`${scored.counted} of ${scored.queries.length} queries have judgments; ${scored.failed} failed`)
      if (judgeNext) for (const line of ['', ...evaluationJudgeNextLines(judgeNext, metrics, evaluation.judgeDepth)]) say(line)
    }
    const junit = stringOption(values, 'junit')
    if (junit !== undefined) {
      await writeOutput('--junit', junit, evaluationJUnit(evaluation, metrics, settingsLine), io)
      say(`JUnit report: ${junit}`)
    }
    const trecRun = stringOption(values, 'trec-run')
    if (trecRun !== undefined) say(await writeTrecRun(trecRun, evaluation, io))
    return scored.failed === 0 ? EXIT_OK : EXIT_FAILED
  } finally {
    await target.close()
  }
}
