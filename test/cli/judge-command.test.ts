import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BUDGET_CALLS } from '../../src/cli/commands/judge-command'
import { promptDigest } from '../../src/main/judges/prompt-digest'
import { MAX_WORKSPACE_BYTES } from '../../src/main/workspaces/workspace-files'
import { layoutOf, parseWorkspace, serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { canaryKey, judgeOn, startLlmServer, type LlmServer } from '../fixtures/llm-servers'
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

/**
 * The file `workspace(judges)` gives, padded with people's judgments (of long
 * item ids, on a query the judge is not asked about) until it is exactly
 * `room` bytes short of what a workspace file may be, in the layout the
 * command writes it in.
 */
function nearlyFull(judges: Record<string, unknown>[], room: number): string {
  const path = workspace(judges)
  const text = readFileSync(path, 'utf8')
  const read = parseWorkspace(text, 'world.qxw.json')
  if (!read.ok) throw new Error(read.message)
  const layout = layoutOf(text)
  const set = read.workspace.sets![0]!
  const rater = set.judgments[0]!.rater
  const padded = (count: number, last: number) => {
    const judgments = Array.from({ length: count }, (_, i) => ({ query: 'q03', item: `pad-${String(i).padStart(6, '0')}-${'p'.repeat(i === count - 1 ? last : 900)}`, rater, grade: 0 }))
    return serializeWorkspace({ ...read.workspace, sets: [{ ...set, judgments: [...set.judgments, ...judgments] }] }, layout)
  }
  const bytes = (body: string) => Buffer.byteLength(body, 'utf8')
  const per = bytes(padded(2, 900)) - bytes(padded(1, 900))
  const target = MAX_WORKSPACE_BYTES - room
  // As many of ~950 bytes as fit, the last one lengthened (by less than one more) to the byte.
  const count = Math.floor((target - bytes(padded(1, 900))) / per) + 1
  const body = padded(count, 900 + target - bytes(padded(count, 900)))
  expect(bytes(body)).toBe(target)
  writeFileSync(path, body)
  return path
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
    const run = await cliInProcess(['judge', path, '--judge', 'counted', '--write', '--json', '--concurrency', '2'], { env: { QUERY_EXPLORER_JUDGE_KEY: key, QUERY_EXPLORER_JUDGE_ORIGIN: server.origin } })
    expect(run.status).toBe(0)
    expect(server.requests).toHaveLength(6)
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${key}`)).toBe(true)
    const written = readFileSync(path, 'utf8')
    for (const text of [run.stdout, run.stderr, written]) expect(text).not.toContain(key)
    // The digest written is the prompt's the server was sent.
    const digests = new Set(judgmentsOf(path, 'llm:counted').judgments.map((judgment) => judgment.promptDigest))
    expect(server.requests.every((request) => digests.has(promptDigest(judgeOn(server), request.prompt)))).toBe(true)
  })

  it('the environment\'s key goes only to the origin QUERY_EXPLORER_JUDGE_ORIGIN names: missing or another, exit 2 and nothing sent', async () => {
    const server = await startLlmServer('openai', { key: null })
    servers.push(server)
    const path = workspace([{ name: 'counted', provider: 'openai', baseUrl: server.baseUrl, model: server.model, depth: 2 }])
    const key = canaryKey()
    const rule = "the key in QUERY_EXPLORER_JUDGE_KEY is only sent to the origin QUERY_EXPLORER_JUDGE_ORIGIN names (scheme://host[:port]), which must be the judge's base URL's; nothing was sent."
    const cases: [NodeJS.ProcessEnv, string][] = [
      [{ QUERY_EXPLORER_JUDGE_KEY: key }, `QUERY_EXPLORER_JUDGE_ORIGIN: is not set: ${rule}`],
      [{ QUERY_EXPLORER_JUDGE_KEY: key, QUERY_EXPLORER_JUDGE_ORIGIN: 'https://api.openai.com' }, `QUERY_EXPLORER_JUDGE_ORIGIN: is https://api.openai.com, but the judge's base URL is on ${server.origin}: ${rule}`],
    ]
    for (const dryRun of [[], ['--dry-run']]) {
      for (const [env, message] of cases) {
        const run = await cliInProcess(['judge', path, '--judge', 'counted', '--json', ...dryRun], { env })
        expect(run.status).toBe(2)
        expect(run.stderr).toContain(message)
        expect(run.stdout + run.stderr).not.toContain(key.slice(10))
      }
    }
    expect(server.requests).toHaveLength(0)
  })

  it('a key with a line break in QUERY_EXPLORER_JUDGE_KEY is refused (exit 2), and never echoed, not even in part', async () => {
    const server = await startLlmServer('openai', { key: null })
    servers.push(server)
    const path = workspace([{ name: 'counted', provider: 'openai', baseUrl: server.baseUrl, model: server.model, depth: 2 }])
    const key = canaryKey()
    const env = { QUERY_EXPLORER_JUDGE_KEY: `${key.slice(0, 14)}\n${key.slice(14)}`, QUERY_EXPLORER_JUDGE_ORIGIN: server.origin }
    const run = await cliInProcess(['judge', path, '--judge', 'counted', '--json'], { env })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('QUERY_EXPLORER_JUDGE_KEY: has a control character (a line break?) in it; set the key alone.')
    for (const part of [key.slice(0, 14), key.slice(14)]) expect(run.stdout + run.stderr).not.toContain(part)
    expect(server.requests).toHaveLength(0)
  })

  it('--write that fails after the calls still prints every grade (CSV, or JSON), says why, and exits 1', async () => {
    const server = await startLlmServer('openai', { key: null })
    servers.push(server)
    for (const json of [false, true]) {
      const path = workspace([{ name: 'counted', provider: 'openai', baseUrl: server.baseUrl, model: server.model, depth: 2 }])
      let swapped = false
      // While the grades are being made, the file becomes a folder: the write can only fail.
      server.otherwise = () => {
        if (!swapped) {
          swapped = true
          rmSync(path)
          mkdirSync(path)
        }
        return { grade: 2, explanation: 'Names the city.' }
      }
      const run = await cliInProcess(['judge', path, '--judge', 'counted', '--write', ...(json ? ['--json'] : [])])
      expect(run.status).toBe(1)
      expect(statSync(path).isDirectory()).toBe(true)
      if (json) {
        expect((JSON.parse(run.stdout) as JudgeJson).graded).toHaveLength(6)
        expect(run.stderr).toContain('--write: world.qxw.json was not written: it is a folder. The 6 grades made are printed in the JSON on standard output, so none is lost.')
      } else {
        const csv = run.stdout.split('\n').filter((line) => /^(query,docid,llm:counted|\w+,\d+,2)$/.test(line))
        expect(csv).toHaveLength(7)
        expect(run.stderr).toContain('--write: world.qxw.json was not written: it is a folder. The 6 grades made are printed on standard output (a Quepid CSV with the column llm:counted), so none is lost.')
      }
      rmSync(path, { recursive: true })
    }
  })

  it('--write refuses before any call a file that clearly cannot take the grades; one that passes the bound after them keeps the grades printed', async () => {
    const server = await startLlmServer('openai', { key: null })
    servers.push(server)
    server.otherwise = () => ({ grade: 1, explanation: 'e'.repeat(300) })
    const judges = [{ name: 'counted', provider: 'openai', baseUrl: server.baseUrl, model: server.model, depth: 2 }]
    // Six grades, each at least ~130 bytes of JSON: 300 bytes of room clearly cannot take them.
    const full = nearlyFull(judges, 300)
    const before = readFileSync(full, 'utf8')
    const refused = await cliInProcess(['judge', full, '--judge', 'counted', '--write', '--json'])
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(/^--write: world\.qxw\.json has room for 300 B more \(a workspace file may be 32\.0 MiB\), and the 6 grades this run would make need at least \d+ B\. Nothing was sent to the model: grade fewer/)
    expect([server.requests.length, refused.stdout]).toEqual([0, ''])
    expect(readFileSync(full, 'utf8') === before).toBe(true)

    // 1,500 bytes could take six short grades; six explanations of 300 characters do not fit after all.
    const near = nearlyFull(judges, 1_500)
    const run = await cliInProcess(['judge', near, '--judge', 'counted', '--write', '--json'])
    expect(server.requests).toHaveLength(6)
    expect(run.status).toBe(1)
    expect((JSON.parse(run.stdout) as JudgeJson).graded).toHaveLength(6)
    expect(run.stderr).toMatch(/--write: world\.qxw\.json was not written: with the grades the file would be [\d.]+ (B|KiB) over the 32\.0 MiB a workspace file may be; it is as it was\. The 6 grades made are printed in the JSON on standard output, so none is lost\./)
  }, 60_000)

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
