import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openRunTarget } from '../src/cli/run-target'
import { startDemoService } from '../src/main/demo/demo-service-process'
import { CallMeter } from '../src/main/judges/call-meter'
import { fetchJudgeItems } from '../src/main/judges/judge-items'
import { planJudging, type PlannedTask } from '../src/main/judges/judge-plan'
import { runJudging } from '../src/main/judges/judge-run'
import { judgeClient, type JudgeClient } from '../src/main/judges/provider-client'
import { RatingIndex } from '../src/main/workspaces/rating-index'
import { readWorkspaceFile } from '../src/main/workspaces/workspace-files'
import { answerJsonSchema, judgeRater, JudgeSchema, parseJudgeAnswer } from '../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../src/shared/relevance/query-set'
import type { Workspace } from '../src/shared/workspace/workspace-file'
import { citySet } from './evaluation'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * Judging 1,000 items (the top 10 of the first city searches that hold them) with the embedded demo's
 * judge at concurrency 4, as `query-explorer judge` and the window's job
 * grade them: each prompt rendered and digested, sent through the official
 * `openai` client and the guarded fetch (origin, budget), the answer parsed
 * and checked, and the grade taken into the document through the rating
 * index. The baseline, in the same run against the same server: the same
 * 1,000 request bodies posted with plain fetch, 4 at a time, answers read and
 * nothing else: what the official client and the guard add is (app − plain)
 * / app. The app's own share: the same run with the model's answers given at
 * once (no HTTP, no SDK), so only the app's code (scheduling, each answer
 * read and checked, each grade taken into the document) takes time, against
 * the whole judging's.
 */

const ITEMS = 1_000
const DEPTH = 10
const CONCURRENCY = 4
const RUNS = 3
const SHARE_AIM = 0.05

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The same bodies the client sends, posted with fetch, `CONCURRENCY` at a time. */
async function plainPosts(url: string, bodies: readonly string[]): Promise<number> {
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer no-key' }, body })
      await response.json()
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return performance.now() - started
}

export async function benchJudging(): Promise<BenchResult[]> {
  const read = await readWorkspaceFile(join(__dirname, '../examples/world.qxw.json'))
  if (!read.ok) throw new Error(read.message)
  const { set: big, template } = citySet(read.workspace)
  const set = { ...big, judgments: [] }
  // The results come from the embedded demo in this process; the judge answers from a demo service of its own, as the app's runs in a child process, so its work is not timed as the app's.
  const target = await openRunTarget(read.workspace, { demo: true }, {}, 'world.qxw.json')
  const judgeService = await startDemoService()
  try {
    await target.warmUp(() => undefined)
    const baseUrl = `${new URL(judgeService.queryUrl).origin}/v1`
    const judge = JudgeSchema.parse({ name: 'bench', provider: 'openai', baseUrl, model: 'demo-judge', fields: ['name', 'country', 'population'], concurrency: CONCURRENCY })
    const items = await fetchJudgeItems({
      runner: target.runner,
      target: target.target,
      template,
      overrides: { config: 'default', workspace: target.connection.workspace },
      queries: set.queries.slice(0, 400),
      depth: DEPTH,
      judge,
      runId: 'bench-judging',
    })
    const plan = await planJudging({ judge, scale: DEFAULT_SCALE, baseUrl, tasks: items.tasks.slice(0, ITEMS), existing: [], cache: null, scope: 'ungraded' })
    const planned: PlannedTask[] = plan.toGrade
    const bodies = planned.map((each) =>
      JSON.stringify({
        model: judge.model,
        messages: [{ role: 'user', content: each.prompt }],
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'grade', strict: true, schema: answerJsonSchema(DEFAULT_SCALE) } },
      }),
    )
    const workspace: Workspace = { ...read.workspace, sets: [set] }
    const rater = judgeRater(judge)
    // The model's answers as the demo judge gives them, for the run that times the app's own code alone (no HTTP, no SDK).
    const answers = new Map<string, string>()
    const appRun = async (own = false): Promise<{ ms: number; graded: number }> => {
      const index = new RatingIndex()
      let document = workspace
      const meter = new CallMeter({ calls: planned.length * 3 })
      const sdk = judgeClient(judge, baseUrl, null, meter)
      const client: JudgeClient = own
        ? {
            grade: async (prompt, scale) => {
              const read = parseJudgeAnswer(answers.get(prompt) ?? '', scale)
              return read.ok ? { ...read, usage: null } : { ok: false, reason: read.reason }
            },
          }
        : {
            grade: async (prompt, scale, signal) => {
              const graded = await sdk.grade(prompt, scale, signal)
              if (graded.ok && !answers.has(prompt)) answers.set(prompt, JSON.stringify({ grade: graded.grade, explanation: graded.explanation }))
              return graded
            },
          }
      const started = performance.now()
      const result = await runJudging({
        planned,
        scale: DEFAULT_SCALE,
        client,
        meter,
        concurrency: CONCURRENCY,
        signal: new AbortController().signal,
        onGraded: (task, answer) => {
          document = index.rated(document, { set: set.name, query: task.query, item: task.item, rater, grade: answer.grade, explanation: answer.explanation, promptDigest: answer.promptDigest }).workspace
        },
        onFailed: () => undefined,
      })
      return { ms: performance.now() - started, graded: result.graded }
    }
    // A warm-up of each: the client's code compiled, the server's answers warm.
    await appRun()
    await plainPosts(`${baseUrl}/chat/completions`, bodies.slice(0, 50))
    const app: number[] = []
    const plain: number[] = []
    const own: number[] = []
    let graded = 0
    for (let run = 0; run < RUNS; run++) {
      const timed = await appRun()
      app.push(timed.ms)
      graded = timed.graded
      plain.push(await plainPosts(`${baseUrl}/chat/completions`, bodies))
      own.push((await appRun(true)).ms)
    }
    const appMs = median(app)
    const plainMs = median(plain)
    const ownMs = median(own)
    const share = ownMs / appMs
    const clientShare = Math.max(0, (appMs - plainMs) / appMs)
    return [
      { name: `judging ${planned.length.toLocaleString('en-US')} items, demo judge, concurrency ${CONCURRENCY}`, value: round((graded / appMs) * 1000), unit: 'items/s', note: `median of ${RUNS}; plain fetch of the same bodies ${round((planned.length / plainMs) * 1000)} items/s` },
      {
        name: "judging: the app's own share of the time",
        value: round(share * 100),
        unit: '%',
        note: `the run with answers given at once (the app's code: scheduling, answers read and checked, grades taken) ${round(ownMs, 0)} ms of ${round(appMs, 0)} ms`,
        aim: atMost(round(share * 100), SHARE_AIM * 100, '%'),
      },
      { name: 'judging: the client and HTTP beyond a plain fetch', value: round(clientShare * 100), unit: '%', note: `(app ${round(appMs, 0)} ms − plain fetch ${round(plainMs, 0)} ms) / app: the official SDK's own work per request, the guard` },
    ]
  } finally {
    await judgeService.close()
    await target.close()
  }
}

runWhenMain(__filename, benchJudging)
