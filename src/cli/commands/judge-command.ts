import { basename } from 'node:path'
import { DEFAULT_SET_CONCURRENCY } from '../../main/evaluation/run-set'
import { judgeBaseUrl } from '../../main/judges/judge-base-url'
import { fetchJudgeItems } from '../../main/judges/judge-items'
import type { JudgeScope } from '../../main/judges/judge-plan'
import type { JudgeSetInput, JudgingProgress } from '../../main/judges/judge-set'
import { openSecretStore } from '../../main/credentials/open-secret-store'
import { RatingIndex } from '../../main/workspaces/rating-index'
import { MAX_WORKSPACE_BYTES, readWorkspaceFileText, writeWorkspaceText } from '../../main/workspaces/workspace-files'
import { formatBytes } from '../../shared/byte-size'
import { ExplorerError } from '../../shared/ipc/errors'
import { JUDGE_SCOPES, MAX_BUDGET_CALLS, MAX_BUDGET_TOKENS, RESULTS_NOT_FETCHED, type JudgeEstimate } from '../../shared/ipc/judge-contract'
import { judgeDepthOf } from '../../shared/relevance/evaluation'
import { judgesOf } from '../../shared/relevance/judge-edits'
import { judgeNextEvaluation } from '../../shared/relevance/judge-next'
import { judgeRater, MAX_JUDGE_CONCURRENCY, MAX_JUDGE_DEPTH, type Judge } from '../../shared/relevance/llm-judge'
import { DEFAULT_METRICS } from '../../shared/relevance/metrics'
import { quepidRatersText } from '../../shared/relevance/quepid-csv'
import { settingsOf, withJudgeNotes, type Judgment, type QuerySet } from '../../shared/relevance/query-set'
import { ratersOf } from '../../shared/relevance/raters'
import { resolveTemplate } from '../../shared/relevance/set-template'
import { relationTo } from '../../shared/workspace/connection-match'
import { layoutOf, serializeWorkspace, type Workspace, type WorkspaceConnection } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command, type OptionValues } from '../command'
import { describedAs, withFlags } from '../flags'
import { usesDemo } from '../embedded-demo'
import type { CliIo } from '../io'
import { chooseConnection, openRunTarget, overridesOf, type RunTarget, warmedUp } from '../run-target'
import { reason as writeFailure } from '../output-files'
import { writeJson, writeLines } from '../terminal-io'
import { chooseSet, quotedList } from './eval-flags'
import { EXIT_FAILED } from './test-command'
import { concurrencyOf, connectionFlags, CONNECTION_FLAGS, CONNECTION_NOTES, maxWaitOf } from './workspace-arguments'

/**
 * `judge <workspace.qxw.json> --judge NAME`: grades a query set's results
 * with one of the file's LLM judges (issue 36, point 7), through the
 * window's own judging (judge-set.ts: the items fetched as an evaluation
 * fetches them, the prompts planned and estimated, the calls made a few at
 * a time within a budget).
 * With --write the grades go into the file as judgments of the rater
 * llm:NAME (kind model), each with the model's explanation and the prompt's
 * digest, by the edit the window's ratings use (RatingIndex); without it,
 * they are printed as a Quepid CSV with a rater column. The judge's own
 * grades under the same prompt (the file's) are current and left alone, so
 * a second run costs no call.
 */

/** The budget when --budget-calls is not given: a run is never unlimited. */
export const DEFAULT_BUDGET_CALLS = 1_000
/** --next: at most this many pairs of the queue (the window's bound). */
export const MAX_JUDGE_NEXT_PAIRS = 1_000

const count = (n: number) => n.toLocaleString('en-US')
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`

export const judgeCommand: Command = {
  name: 'judge',
  summary: "grade a query set's results with one of the workspace's LLM judges, within a budget",
  usage:
    '<workspace.qxw.json> --judge NAME [--set NAME] [--depth K] [--next N] [--budget-calls N] [--budget-tokens T] [--concurrency C] [--scope ungraded|stale|all] [--dry-run] [--json] [--write] [--connection NAME]',
  ...withFlags([
    '<workspace.qxw.json>   the workspace file holding the judge ("judges") and the query set ("sets")',
    {
      judge: { type: 'string', value: 'NAME', help: 'the judge, by name (its grades are the rater llm:NAME)' },
      set: { type: 'string', value: 'NAME', help: "the query set (default: the file's only one; a file of several needs it)" },
      depth: { type: 'string', value: 'K', help: `each query's top K results are graded, 1 to ${MAX_JUDGE_DEPTH} (default: the judge's depth)` },
      next: {
        type: 'string',
        value: 'N',
        help: [
          `grade the first N (1 to ${MAX_JUDGE_NEXT_PAIRS}) pairs of the set's judge-next queue instead (the`,
          "unjudged pairs that could move the figures most, as eval --judge-next lists them: the set's",
          `default metrics over each query's top K)`,
        ],
      },
      'budget-calls': {
        type: 'string',
        value: 'N',
        help: [`at most N requests to the model, retries included (default ${count(DEFAULT_BUDGET_CALLS)}, at most`, `${count(MAX_BUDGET_CALLS)}); the run stops there, keeping what it graded`],
      },
      'budget-tokens': { type: 'string', value: 'T', help: 'and at most T tokens, input and output together, where the provider reports usage' },
      concurrency: { type: 'string', value: 'C', help: `calls at once, 1 to ${MAX_JUDGE_CONCURRENCY} (default: the judge's)` },
      scope: {
        type: 'string',
        value: 'ungraded|stale|all',
        help: [
          'ungraded: the items the judge has not graded (default); stale: those and the ones it',
          'graded under another prompt (the prompt digest differs); all: every item',
        ],
      },
      'dry-run': { type: 'boolean', help: 'fetch the items and print the estimate (calls, tokens) only: no call to the model' },
      write: { type: 'boolean', help: 'write the grades into the workspace file (rater llm:NAME, kind model, with explanation and prompt digest)' },
      json: {
        type: 'boolean',
        help: [
          'print one JSON object: { judge, graded: [{ query, item, grade, explanation }], failed:',
          '[{ query, item, reason }], calls, tokens: { input, output }, cached, stoppedByBudget, left }',
          '(with --dry-run: { judge, estimate })',
        ],
      },
    },
    describedAs(CONNECTION_FLAGS, { connection: "a connection of the file, by name or id (default: the set's template's)" }),
    ...CONNECTION_NOTES,
    'The judge\'s key comes from QUERY_EXPLORER_JUDGE_KEY, sent only to the origin QUERY_EXPLORER_JUDGE_ORIGIN',
    "names (required with it, and it must be the judge's base URL's: scheme://host[:port]), or from the app's",
    "keychain entry for the judge's base URL's origin, sent only to that origin. No header or setting the",
    'providers\' SDKs read from the environment (OPENAI_CUSTOM_HEADERS, OPENAI_ADMIN_KEY, ANTHROPIC_CUSTOM_HEADERS…)',
    "is sent to the judge. A judge on the demo's origin runs on the embedded",
    "demo judge (demo-judge), moved with the demo connection, and needs no key. Without --write the grades",
    'go to standard output as a Quepid CSV (query,docid,llm:NAME) and the summary to standard error.',
    'With --budget-tokens, each call reserves its estimated tokens (its prompt\'s, and about 60 for the',
    'answer) until the provider reports what it took; no call starts that would pass the budget by that',
    'estimate, and an answer is bounded to 300 tokens (max_completion_tokens, max_tokens).',
    'With --write, a file that could not take the grades (each at least a line of JSON) is refused before',
    'any call; should the write fail after the calls, the grades are printed instead (CSV, or the JSON) and',
    'the exit status is 1.',
    'Exit status: 0 every item graded (or the budget stopped the run: the items left are counted), 1 some',
    'item failed (an answer off the scale, a provider error: each listed with its reason), some query',
    'could not be fetched, or --write could not write the file, 2 bad input (file, judge, set, flag,',
    "connection, a judge whose scale is not the set's, the key's variables).",
  ]),
  positionals: { min: 1, max: 1 },
  run: (input, io) => judge(input.positionals[0]!, input.values, io),
}

/** A whole number flag from `min` to `max`, or `fallback` when not given; anything else is bad input naming the flag. */
function wholeNumber(values: OptionValues, flag: string, min: number, max: number, what: string): number | undefined {
  const text = stringOption(values, flag)
  if (text === undefined) return undefined
  const value = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new InputError([`--${flag}: "${text}" is not a whole number from ${count(min)} to ${count(max)} (${what}).`])
  return value
}

function scopeOf(values: OptionValues): JudgeScope {
  const text = stringOption(values, 'scope')
  if (text === undefined) return 'ungraded'
  if (!(JUDGE_SCOPES as readonly string[]).includes(text)) {
    throw new InputError([`--scope: "${text}" is not a scope: write ungraded (what the judge has not graded), stale (that, and its grades under another prompt) or all.`])
  }
  return text as JudgeScope
}

function chooseJudge(workspace: Workspace, name: string | undefined, fileName: string): Judge {
  const judges = judgesOf(workspace)
  const names = judges.length === 0 ? 'it has none: add one in the app (Evaluation, Judges) or under "judges" in the file' : `it has: ${quotedList(judges.map((judge) => judge.name))}`
  if (name === undefined) throw new InputError([`--judge: name the judge to grade with (${fileName}: ${names}).`])
  const found = judges.find((judge) => judge.name === name)
  if (!found) throw new InputError([`--judge: "${name}" is not a judge of ${fileName} (${names}).`])
  return found
}

/** The scale a judge grades a set in (judge-set.ts): a judge that names another scale than the set's is bad input. */
function scaleFor(judge: Judge, set: QuerySet, judgeScale: (judge: Judge, set: QuerySet) => unknown): void {
  try {
    judgeScale(judge, set)
  } catch (error) {
    if (error instanceof ExplorerError) throw new InputError([`--judge: ${error.message}`])
    throw error
  }
}

/**
 * Where the judge's calls go: its base URL, moved with the file's connection
 * when that connection runs on the embedded demo (the example's judge names
 * the demo's usual 127.0.0.1:8080, the embedded demo has a port of its own).
 */
function baseUrlFor(judge: Judge, file: WorkspaceConnection, target: RunTarget, demo: boolean): { baseUrl: string; moved: boolean } {
  if (!demo) return { baseUrl: judge.baseUrl, moved: false }
  const app = target.connection
  const how = relationTo(file, { id: 'demo', authUrl: app.authUrl, queryUrl: app.queryUrl, workspace: app.workspace, clientId: app.clientId })
  const baseUrl = how ? judgeBaseUrl(judge.baseUrl, [{ file, app, how }]) : judge.baseUrl
  return { baseUrl, moved: baseUrl !== judge.baseUrl }
}

/**
 * The key sent with the calls: none to the embedded demo's judge; else
 * QUERY_EXPLORER_JUDGE_KEY, only to the origin QUERY_EXPLORER_JUDGE_ORIGIN
 * names (which must be the judge's: the file's base URL may come from a pull
 * request, the environment is CI's own), or the app's keychain entry bound
 * to exactly the base URL's origin (JudgeKeys), never one saved for another
 * origin. The environment's key is checked on a dry run too, so a CI set up
 * wrong learns it before it spends anything; nothing is read from the
 * keychain then, as nothing is sent.
 */
async function keyFor(baseUrl: string, moved: boolean, env: NodeJS.ProcessEnv, dryRun: boolean): Promise<string | null> {
  if (moved) return null
  const { envJudgeKey, JudgeKeys } = await import('../../main/judges/judge-keys')
  let fromEnv: string | null
  try {
    fromEnv = envJudgeKey(env, baseUrl)
  } catch (error) {
    if (error instanceof ExplorerError) throw new InputError([error.message])
    throw error
  }
  if (dryRun) return null
  if (fromEnv) return fromEnv
  try {
    const keychain = await openSecretStore(env.QUERY_EXPLORER_KEYCHAIN_SERVICE || undefined)
    if (keychain.kind !== 'os') return null
    return await new JudgeKeys(keychain).get(baseUrl)
  } catch {
    return null
  }
}

/**
 * The fewest bytes one more grade adds to the file: its judgment's line as
 * JSON with no explanation and the shortest query id (the prompt's digest is
 * always 64 characters). A file whose room cannot hold that many of them
 * clearly cannot take the grades.
 */
function leastGradeBytes(set: QuerySet, rater: string): number {
  const query = set.queries.reduce((shortest, each) => (each.id.length < shortest.length ? each.id : shortest), set.queries[0]!.id)
  return Buffer.byteLength(JSON.stringify({ query, item: 'x', rater, grade: 0, promptDigest: '0'.repeat(64) }), 'utf8')
}

interface Graded {
  query: string
  item: string
  grade: number
  explanation: string
  promptDigest: string
}

async function judge(path: string, values: OptionValues, io: CliIo): Promise<number> {
  // Read with its text: --write keeps the file's layout.
  const read = await readWorkspaceFileText(path)
  if (!read.ok) throw new InputError([read.message])
  const fileName = basename(path)
  const workspace = read.workspace
  const chosenJudge = chooseJudge(workspace, stringOption(values, 'judge'), fileName)
  const set = chooseSet(workspace, stringOption(values, 'set'), fileName, { verb: 'judge', only: true })
  // Loaded when a judging runs, not on every start of the command line: the providers' SDKs come with it.
  const { judgeScale, judgeSet } = await import('../../main/judges/judge-set')
  scaleFor(chosenJudge, set, judgeScale)
  const depth = wholeNumber(values, 'depth', 1, MAX_JUDGE_DEPTH, "each query's top results graded") ?? chosenJudge.depth
  const next = wholeNumber(values, 'next', 1, MAX_JUDGE_NEXT_PAIRS, 'the pairs of the judge-next queue to grade') ?? null
  const budgetCalls = wholeNumber(values, 'budget-calls', 1, MAX_BUDGET_CALLS, 'requests to the model, retries included') ?? DEFAULT_BUDGET_CALLS
  const budgetTokens = wholeNumber(values, 'budget-tokens', 1, MAX_BUDGET_TOKENS, 'tokens, input and output together')
  const concurrency = concurrencyOf(values, chosenJudge.concurrency, MAX_JUDGE_CONCURRENCY)
  const scope = scopeOf(values)
  const dryRun = values['dry-run'] === true
  const json = values.json === true
  const write = values.write === true
  const maxWait = maxWaitOf(values)
  const flags = connectionFlags(values)
  if (set.queries.length === 0) throw new InputError([`--set: the query set "${set.name}" of ${fileName} has no queries to judge: add some first.`])
  const template = resolveTemplate(workspace, set)
  if (template.error !== null || template.request === null) throw new InputError([`--set: "${set.name}" cannot run: ${template.error ?? 'it has no template.'}`])
  const rater = judgeRater(chosenJudge)
  // Where the summary goes: standard output unless it holds the CSV or the JSON (a --write that failed prints the CSV).
  let summaryToErr = json || !write
  const say = (line: string) => (summaryToErr ? io.err(line) : io.out(line))

  const connection = flags.connection ?? template.connection ?? undefined
  const target = await openRunTarget(workspace, { ...flags, connection }, io.env ?? process.env, fileName, io.clock, io.secrets)
  try {
    await warmedUp(target, say, maxWait)
    const file = chooseConnection(workspace, connection, fileName)
    const { baseUrl, moved } = baseUrlFor(chosenJudge, file, target, usesDemo(file, flags))
    if (moved) say(`The judge "${chosenJudge.name}" runs on the embedded demo's judge, at ${baseUrl} (the file names ${chosenJudge.baseUrl}).`)

    // The items: each query's top K, or the first N of the judge-next queue, computed over them as eval --judge-next does.
    const overrides = { ...overridesOf({ config: stringOption(values, 'config'), api: stringOption(values, 'api') }), workspace: target.connection.workspace }
    const fetch = { runner: target.runner, target: target.target, template: template.request, overrides, concurrency: DEFAULT_SET_CONCURRENCY, runId: 'cli-judge' }
    let only: { pairs: { query: string; item: string }[]; queries: string[] } | null = null
    if (next !== null) {
      const ranked = await fetchJudgeItems({ ...fetch, queries: set.queries, depth, judge: chosenJudge })
      const metrics = DEFAULT_METRICS
      const queue = judgeNextEvaluation(ranked.rankings, set, { metrics, settings: settingsOf(set), judgeDepth: Math.min(depth, judgeDepthOf(metrics)) }, { limit: next }).queue
      only = { pairs: queue.map(({ query, item }) => ({ query, item })), queries: [] }
      say(`Judge next: the first ${plural(queue.length, 'pair')} of the queue (${next} asked).`)
    }

    // No key for an estimate: nothing is sent (the environment's is still checked).
    const key = await keyFor(baseUrl, moved, io.env ?? process.env, dryRun)
    if (key) io.secrets?.add(key)
    const graded: Graded[] = []
    const index = new RatingIndex()
    let document = workspace
    const newProgress = (): JudgingProgress => ({ phase: '', done: 0, total: 0, estimate: null, graded: 0, cached: 0, failures: [], calls: 0, tokens: { input: 0, output: 0 }, stoppedByBudget: false, left: 0 })
    const progress = newProgress()
    const controller = new AbortController()
    const judging: Omit<JudgeSetInput, 'dryRun' | 'progress' | 'key'> = {
      judge: chosenJudge,
      set,
      baseUrl,
      fetch,
      depth,
      scope,
      only,
      budget: { calls: budgetCalls, tokens: budgetTokens },
      concurrency,
      // The command line's cache is the file itself: the judge's grades under the same prompt are current, and left alone.
      cache: null,
      signal: controller.signal,
      rate: async (task, answer) => {
        if (write) document = index.rated(document, { set: set.name, query: task.query, item: task.item, rater, grade: answer.grade, explanation: answer.explanation, promptDigest: answer.promptDigest }).workspace
        graded.push({ query: task.query, item: task.item, grade: answer.grade, explanation: answer.explanation, promptDigest: answer.promptDigest })
      },
    }
    if (write && !dryRun) {
      // A file that clearly cannot take the grades is refused before any call: each adds at least its line of JSON.
      const size = Buffer.byteLength(read.text, 'utf8')
      const least = leastGradeBytes(set, rater)
      const fits = (grades: number) => size + grades * least <= MAX_WORKSPACE_BYTES
      if (!fits(Math.min(only ? only.pairs.length : set.queries.length * depth, budgetCalls))) {
        // Too near the bound to tell from the most there could be: the plan says how many, fetched and planned as the run will, with no call.
        const trial = newProgress()
        await judgeSet({ ...judging, key: null, dryRun: true, progress: trial })
        const expected = Math.min(trial.estimate?.calls ?? 0, budgetCalls) + (trial.estimate?.cached ?? 0)
        if (!fits(expected)) {
          throw new InputError([
            `--write: ${fileName} has room for ${formatBytes(Math.max(0, MAX_WORKSPACE_BYTES - size))} more (a workspace file may be ${formatBytes(MAX_WORKSPACE_BYTES)}), and the ${plural(expected, 'grade')} this run would make need at least ${formatBytes(expected * least)}. Nothing was sent to the model: grade fewer (--depth, --next, --budget-calls), or run without --write to print the grades.`,
          ])
        }
      }
    }
    // Ctrl-C stops taking new items; what was graded is still written.
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    try {
      await judgeSet({ ...judging, key, dryRun, progress })
    } finally {
      process.off('SIGINT', stop)
    }
    const failed = progress.failures
    const unfetched = failed.some((failure) => failure.item === RESULTS_NOT_FETCHED)
    if (dryRun) {
      const estimate = progress.estimate
      if (!estimate) return EXIT_FAILED
      if (json) writeJson(io.out, JSON.stringify({ judge: rater, estimate }, null, 2))
      else for (const line of estimateLines(estimate, rater, set.name)) io.out(line)
      for (const failure of failed) io.err(`failed: query ${failure.query}, item ${failure.item}: ${failure.reason}`)
      return unfetched ? EXIT_FAILED : EXIT_OK
    }
    // Whatever stops the write, the grades paid for are printed all the same (the CSV, or the JSON), and the exit says so.
    let notWritten: string | null = null
    if (write && graded.length > 0) {
      try {
        await writeGrades(path, read.text, listedAsModel(document, set.name, rater))
      } catch (error) {
        notWritten = error instanceof InputError ? error.message : `${writeFailure(error)}.`
        summaryToErr = true
      }
    }
    if (progress.estimate) for (const line of estimateLines(progress.estimate, rater, set.name)) say(line)
    const { calls, tokens, cached, stoppedByBudget, left } = progress

    if (json) {
      writeJson(
        io.out,
        JSON.stringify(
          {
            judge: rater,
            graded: graded.map(({ query, item, grade, explanation }) => ({ query, item, grade, explanation })),
            failed,
            calls,
            tokens: { input: tokens.input, output: tokens.output },
            cached,
            stoppedByBudget,
            left,
          },
          null,
          2,
        ),
      )
    } else {
      // A line at a time (the CRLF of each record dropped): each line goes through the terminal's escapes on its own.
      if (!write || notWritten !== null) writeLines(io.out, csvOf(set, rater, graded).replace(/\r\n/g, '\n'))
      for (const failure of failed) say(`failed: query ${failure.query}, item ${failure.item}: ${failure.reason}`)
      say(
        `${plural(graded.length, 'item')} graded by ${rater} (${count(cached)} from the cache), ${plural(failed.length, 'failed', 'failed')}; ${plural(calls, 'call')}, ${count(tokens.input)} input and ${count(tokens.output)} output tokens.`,
      )
      if (stoppedByBudget) say(`Stopped at the budget (${plural(budgetCalls, 'call')}${budgetTokens !== undefined ? `, ${count(budgetTokens)} tokens` : ''}): ${plural(left, 'item')} left to grade.`)
      else if (left > 0) say(`${plural(left, 'item')} left to grade.`)
      if (write && notWritten === null) say(graded.length > 0 ? `Written to ${fileName} as judgments of the rater ${rater}.` : `${fileName} is unchanged: nothing was graded.`)
    }
    if (notWritten !== null) {
      const where = json ? 'in the JSON on standard output' : `on standard output (a Quepid CSV with the column ${rater})`
      io.err(`--write: ${fileName} was not written: ${notWritten} The ${plural(graded.length, 'grade')} made ${graded.length === 1 ? 'is' : 'are'} printed ${where}, so none is lost.`)
      return EXIT_FAILED
    }
    return failed.length === 0 ? EXIT_OK : EXIT_FAILED
  } finally {
    await target.close()
  }
}

function estimateLines(estimate: JudgeEstimate, rater: string, setName: string): string[] {
  const notes = [
    estimate.cached > 0 ? `${count(estimate.cached)} from the cache` : null,
    estimate.current > 0 ? `${count(estimate.current)} graded already under this prompt` : null,
    estimate.stale > 0 ? `${count(estimate.stale)} stale (graded under another prompt)` : null,
  ].filter(Boolean)
  return [`Estimate for ${rater} on "${setName}": ${estimate.text}, about ${count(estimate.outputTokens)} output tokens${notes.length > 0 ? `; ${notes.join(', ')}` : ''}.`]
}

/** The set with the judge listed among its raters, as a model (a file that lists its raters then says so). */
function listedAsModel(workspace: Workspace, setName: string, rater: string): Workspace {
  const sets = (workspace.sets ?? []).map((set) => {
    if (set.name !== setName) return set
    const raters = ratersOf(set)
    const at = raters.findIndex((each) => each.name === rater)
    if (at >= 0 && raters[at]!.kind === 'model' && set.raters?.some((each) => each.name === rater)) return set
    const listed = at >= 0 ? raters.map((each, i) => (i === at ? { name: rater, kind: 'model' as const } : each)) : [...raters, { name: rater, kind: 'model' as const }]
    return { ...set, raters: listed }
  })
  return { ...workspace, sets }
}

/** Writes the file in the layout it had; one that would pass a workspace file's size is refused, leaving the file as it was. */
async function writeGrades(path: string, readText: string, workspace: Workspace): Promise<void> {
  let text: string
  try {
    text = serializeWorkspace(workspace, layoutOf(readText))
  } catch (error) {
    throw new InputError([`the grades cannot be written: ${(error as Error).message}`])
  }
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_WORKSPACE_BYTES) throw new InputError([`with the grades the file would be ${formatBytes(bytes - MAX_WORKSPACE_BYTES)} over the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may be; it is as it was.`])
  await writeWorkspaceText(path, text)
}

/** The grades as a Quepid CSV with a column for the judge (quepid-csv.ts's book shape): every query of the set, those graded with their items. */
function csvOf(set: QuerySet, rater: string, graded: readonly Graded[]): string {
  const judgments: Judgment[] = graded.map((each) => withJudgeNotes({ query: each.query, item: each.item, rater, grade: each.grade }, undefined, undefined))
  return quepidRatersText({ ...set, raters: [{ name: rater, kind: 'model' }], judgments })
}
