import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BUDGET_CALLS } from '../../src/cli/commands/judge-command'
import { promptDigest } from '../../src/main/judges/prompt-digest'
import { parseWorkspace } from '../../src/shared/workspace/workspace-file'
import { canaryKey, startLlmServer, type LlmServer } from '../fixtures/llm-servers'
import { useTempFiles } from '../fixtures/temp-dirs'
import { cli, cliInProcess, WORLD } from './spawn-cli'

/**
 * `query-explorer judge`: a copy of the example workspace (its set cut to
 * three queries) judged on the embedded demo, started inside the command,
 * with the demo's own judge (demo-judge, on the demo's origin: the judge's
 * base URL moves with the demo connection), and with a judge on an
 * OpenAI-compatible server on 127.0.0.1 where the calls are counted.
 */

const file = useTempFiles('qe-cli-judge')
const SET = 'World cities (synthetic judgments)'
const QUERIES = ['q01', 'q02', 'q03']

interface JudgeJson {
  judge: string
  graded: { query: string; item: string; grade: number; explanation: string }[]
  failed: { query: string; item: string; reason: string }[]
  calls: number
  tokens: { input: number; output: number }
  cached: number
  stoppedByBudget: boolean
  left: number
}

/** The example with these judges (the demo's on its usual address) and its set cut to three queries, each judged to depth 3. */
function workspace(judges: Record<string, unknown>[] = [], keep: (judgment: { query: string; item: string }) => boolean = () => true): string {
  const world = JSON.parse(readFileSync(WORLD, 'utf8')) as { judges?: unknown; sets: { name: string; queries: { id: string }[]; judgments: { query: string; item: string }[] }[] }
  const set = world.sets.find((each) => each.name === SET)!
  set.queries = set.queries.filter((query) => QUERIES.includes(query.id))
  set.judgments = set.judgments.filter((judgment) => QUERIES.includes(judgment.query)).filter(keep)
  world.sets = [set]
  world.judges = [
    { name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', depth: 3 },
    { name: 'flaky', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge-flaky', depth: 10 },
    ...judges,
  ]
  return file('world.qxw.json', JSON.stringify(world, null, 2))
}

function judgmentsOf(path: string, rater: string) {
  const read = parseWorkspace(readFileSync(path, 'utf8'), 'world.qxw.json')
  if (!read.ok) throw new Error(read.message)
  const set = read.workspace.sets![0]!
  return { judgments: set.judgments.filter((judgment) => judgment.rater === rater), raters: set.raters ?? [] }
}

describe('query-explorer judge', () => {
  const servers: LlmServer[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })

  it('writes the grades as the rater llm:demo (kind model) with explanation and prompt digest; a second run makes no call', async () => {
    const path = workspace()
    const first = await cliInProcess(['judge', path, '--judge', 'demo', '--write'])
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(first.stdout).toContain('The judge "demo" runs on the embedded demo\'s judge, at http://127.0.0.1:')
    expect(first.stdout).toMatch(/9 items graded by llm:demo \(0 from the cache\), 0 failed; 9 calls/)
    const { judgments, raters } = judgmentsOf(path, 'llm:demo')
    expect(judgments).toHaveLength(9)
    expect(raters).toContainEqual({ name: 'llm:demo', kind: 'model' })
    for (const judgment of judgments) {
      expect(judgment.explanation).toMatch(/\w/)
      expect(judgment.promptDigest).toMatch(/^[0-9a-f]{64}$/)
    }
    // Paris, the capital, is the top result and a Perfect by the demo's rule.
    expect(judgments.find((judgment) => judgment.query === 'q01' && judgment.item === '2988507')).toMatchObject({ grade: 3, explanation: expect.stringContaining('Paris') })

    const before = readFileSync(path, 'utf8')
    const second = await cliInProcess(['judge', path, '--judge', 'demo', '--write', '--json'])
    expect(second.status).toBe(0)
    expect(JSON.parse(second.stdout)).toEqual({ judge: 'llm:demo', graded: [], failed: [], calls: 0, tokens: { input: 0, output: 0 }, cached: 0, stoppedByBudget: false, left: 0 })
    expect(second.stderr).toContain('9 graded already under this prompt')
    expect(readFileSync(path, 'utf8')).toBe(before)
  })

  it('stops at --budget-calls with what was graded kept, saying how many items are left', async () => {
    const path = workspace()
    const run = await cliInProcess(['judge', path, '--judge', 'demo', '--budget-calls', '3', '--json', '--write'])
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout) as JudgeJson
    expect(report).toMatchObject({ calls: 3, stoppedByBudget: true, left: 6, failed: [] })
    expect(report.graded).toHaveLength(3)
    expect(judgmentsOf(path, 'llm:demo').judgments).toHaveLength(3)
  })

  it('prints the grades as a Quepid CSV with a column for the judge when the file is not written', async () => {
    const path = workspace()
    const before = readFileSync(path, 'utf8')
    const run = await cliInProcess(['judge', path, '--judge', 'demo', '--depth', '1'])
    expect(run.status).toBe(0)
    expect(run.stdout).toBe('query,docid,llm:demo\nparis,2988507,3\nlisbon,2267057,2\nosaka,1853909,3\n')
    expect(run.stderr).toContain('3 items graded by llm:demo')
    expect(readFileSync(path, 'utf8')).toBe(before)
  })

  it('lists an answer off the scale under failed with the model\'s words, and exits 1', async () => {
    const path = workspace()
    const run = await cliInProcess(['judge', path, '--judge', 'flaky', '--json'])
    expect(run.status).toBe(1)
    const report = JSON.parse(run.stdout) as JudgeJson
    expect(report.failed.length).toBeGreaterThan(0)
    expect(report.failed[0]!.reason).toMatch(/grade 7 is not on the scale \(0, 1, 2, 3\)/)
    expect(report.graded.length + report.failed.length).toBe(report.calls)
    expect(report.graded.map((each) => each.grade).every((grade) => grade >= 0 && grade <= 3)).toBe(true)
  })

  it('--dry-run prints the estimate and makes no call; a run sends the key from the environment to the judge alone', async () => {
    const server = await startLlmServer('openai', { key: null })
    servers.push(server)
    const path = workspace([{ name: 'counted', provider: 'openai', baseUrl: server.baseUrl, model: server.model, depth: 2 }])
    const dry = await cliInProcess(['judge', path, '--judge', 'counted', '--dry-run', '--json'])
    expect(dry.status).toBe(0)
    const { estimate } = JSON.parse(dry.stdout) as { estimate: { calls: number; inputTokens: number; text: string } }
    expect(estimate).toMatchObject({ calls: 6, cached: 0, current: 0, stale: 0 })
    expect(estimate.text).toBe(`about 6 calls, ${estimate.inputTokens.toLocaleString('en-US')} input tokens`)
    expect(server.requests).toHaveLength(0)

    const key = canaryKey()
    const run = await cliInProcess(['judge', path, '--judge', 'counted', '--write', '--json', '--concurrency', '2'], { env: { QUERY_EXPLORER_JUDGE_KEY: key } })
    expect(run.status).toBe(0)
    expect(server.requests).toHaveLength(6)
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${key}`)).toBe(true)
    const written = readFileSync(path, 'utf8')
    for (const text of [run.stdout, run.stderr, written]) expect(text).not.toContain(key)
    // The digest written is the prompt's the server was sent.
    const digests = new Set(judgmentsOf(path, 'llm:counted').judgments.map((judgment) => judgment.promptDigest))
    expect(server.requests.every((request) => digests.has(promptDigest(request.prompt)))).toBe(true)
  })

  it('--next N grades the first N pairs of the judge-next queue only', async () => {
    // Paris's odd items left unjudged: its top 10 has items that could move its figures.
    const path = workspace([], (judgment) => judgment.query !== 'q01' || Number(judgment.item) % 2 === 0)
    const run = await cliInProcess(['judge', path, '--judge', 'demo', '--next', '2', '--depth', '10', '--json'])
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout) as JudgeJson
    expect(report.calls).toBe(2)
    expect(report.graded).toHaveLength(2)
    // The queue holds only the unjudged: paris's odd items.
    expect(report.graded.every((each) => each.query === 'q01' && Number(each.item) % 2 === 1)).toBe(true)
    expect(run.stderr).toContain('Judge next: the first 2 pairs of the queue')
  })

  it('bad input exits 2 naming the flag, before anything is sent', async () => {
    const path = workspace()
    const cases: [string[], RegExp][] = [
      [[], /^--judge: name the judge to grade with \(world\.qxw\.json: it has: "demo", "flaky"\)/],
      [['--judge', 'nope'], /^--judge: "nope" is not a judge of world\.qxw\.json/],
      [['--judge', 'demo', '--scope', 'some'], /^--scope: "some" is not a scope/],
      [['--judge', 'demo', '--depth', '0'], /^--depth: "0" is not a whole number from 1 to 1,000/],
      [['--judge', 'demo', '--budget-calls', 'lots'], /^--budget-calls: "lots" is not a whole number from 1 to 1,000,000/],
      [['--judge', 'demo', '--concurrency', '17'], /^--concurrency: "17" is not a whole number from 1 to 16/],
      [['--judge', 'demo', '--set', 'Other'], /^--set: "Other" is not a query set of world\.qxw\.json/],
    ]
    for (const [args, message] of cases) {
      const run = await cliInProcess(['judge', path, ...args])
      expect(run.status, args.join(' ')).toBe(2)
      expect(run.stderr, args.join(' ')).toMatch(message)
      expect(run.stdout).toBe('')
    }
  })

  it('is listed with its flags and the stated default budget, spawned as a person runs it', async () => {
    const run = await cli(['judge', '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Usage: query-explorer judge <workspace.qxw.json> --judge NAME')
    expect(run.stdout).toContain(`(default ${DEFAULT_BUDGET_CALLS.toLocaleString('en-US')}, at most`)
    for (const flag of ['--judge NAME', '--set NAME', '--depth K', '--next N', '--budget-calls N', '--budget-tokens T', '--concurrency C', '--scope ungraded|stale|all', '--dry-run', '--json', '--write']) {
      expect(run.stdout).toContain(flag)
    }
  })
})
