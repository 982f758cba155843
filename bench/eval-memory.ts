import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverWorkspace } from '../test/fixtures/server-workspace'
import { atMost, runWhenMain, type BenchResult } from './result'

/**
 * The peak memory of `query-explorer eval` (the bin, spawned as a person
 * runs it) on a set of 1,000 queries to depth 100, against a hostile server
 * on 127.0.0.1 whose every page holds 600,000 tiny items (40 MB, under the
 * 50 MiB an answer may hold) whatever count it was asked, and, as the
 * same-run baseline, against a server answering the count asked. An
 * evaluation keeps only the depth asked, so the figure should stay near the
 * baseline's, not grow with the items a page holds or with the queries.
 * The peak is the process's own (getrusage's maxrss, written by peak-rss.cjs
 * as it exits).
 */

const QUERIES = 1_000
const DEPTH = 100
const HOSTILE_ITEMS = 600_000
const AIM_MB = 400
const ROOT = join(__dirname, '..')

export interface EvalRss {
  /** Peak resident set size of the command, in MB. */
  peakMb: number
  seconds: number
  /** Items the evaluation kept, over all queries (what the --json output says each returned). */
  kept: number
  failed: number
}

/**
 * A results page of `count` tiny items, ids from `offset`: 600,000 of them
 * make 39.3 MiB, so that four read at once stay within the 160 MiB the
 * client lets answers hold together.
 */
function page(count: number, offset = 0): Buffer {
  const items: string[] = new Array(count)
  for (let i = 0; i < count; i++) items[i] = `{"rank":${offset + i + 1},"probability":1,"tuple":[{"id":"${offset + i}","class":[]}]}`
  return Buffer.from(`{"offset":${offset},"count":${count},"type":["OBJ"],"items":[${items.join(',')}]}`)
}

/** Answers every query with `fixed` (the hostile server), or with the count and offset it asks (the baseline). */
async function serve(fixed: Buffer | null): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const body = fixed ?? page(Number(url.searchParams.get('count') ?? 10), Number(url.searchParams.get('offset') ?? 0))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function workspace(origin: string, queries: number): unknown {
  return serverWorkspace(
    origin,
    [
      {
        name: 'Bench',
        queries: Array.from({ length: queries }, (_, i) => ({ id: `q${i + 1}`, text: `query ${i + 1}` })),
        judgments: Array.from({ length: queries }, (_, i) => ({ query: `q${i + 1}`, item: String(i % 50), grade: 3 })),
      },
    ],
    'bench',
  )
}

/** Runs `query-explorer eval --json` to `depth` on `queries` queries against the server, and reads its peak RSS. */
export async function evalRss(options: { queries: number; depth: number; pageItems: number | null; concurrency?: number }): Promise<EvalRss> {
  const { server, origin } = await serve(options.pageItems === null ? null : page(options.pageItems))
  const dir = mkdtempSync(join(tmpdir(), 'qe-bench-rss-'))
  try {
    const file = join(dir, 'bench.qxw.json')
    writeFileSync(file, JSON.stringify(workspace(origin, options.queries)))
    const peakFile = join(dir, 'peak')
    const args = ['--require', join(__dirname, 'peak-rss.cjs'), join(ROOT, 'bin/query-explorer.cjs'), 'eval', file, '--depth', String(options.depth), '--json']
    if (options.concurrency !== undefined) args.push('--concurrency', String(options.concurrency))
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, QE_BENCH_PEAK_RSS_FILE: peakFile, QUERY_EXPLORER_DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', resolve)
    })
    const seconds = (performance.now() - started) / 1000
    if (status !== 0 && status !== 1) throw new Error(`eval exited ${status}: ${err.slice(0, 2_000)}`)
    const report = JSON.parse(Buffer.concat(out).toString('utf8')) as { queries: { returned: number; error: string | null }[] }
    return {
      peakMb: Number(readFileSync(peakFile, 'utf8')) / 1024,
      seconds,
      kept: report.queries.reduce((sum, query) => sum + query.returned, 0),
      failed: report.queries.filter((query) => query.error !== null).length,
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchEvalMemory(): Promise<BenchResult[]> {
  const { builtCliIsCurrent } = require('../scripts/cli-bundle.cjs') as { builtCliIsCurrent: () => boolean }
  const ran = builtCliIsCurrent() ? 'the built bundle' : 'the sources through tsx (no current build)'
  const baseline = await evalRss({ queries: QUERIES, depth: DEPTH, pageItems: null })
  const hostile = await evalRss({ queries: QUERIES, depth: DEPTH, pageItems: HOSTILE_ITEMS })
  for (const [name, run] of [['baseline', baseline], ['hostile', hostile]] as const) {
    if (run.failed > 0 || run.kept !== QUERIES * DEPTH) throw new Error(`the ${name} evaluation kept ${run.kept} items (${run.failed} queries failed), not ${QUERIES * DEPTH}`)
  }
  const mb = (value: number) => Math.round(value)
  return [
    {
      name: `eval: peak RSS, ${QUERIES} queries to depth ${DEPTH}, pages of ${HOSTILE_ITEMS.toLocaleString('en-US')} items`,
      value: mb(hostile.peakMb),
      unit: 'MB',
      note: `${Math.round(hostile.seconds)} s; baseline (pages of the ${DEPTH} items asked) ${mb(baseline.peakMb)} MB in ${Math.round(baseline.seconds)} s; ${DEPTH} items kept a query in both; ${ran}`,
      aim: atMost(mb(hostile.peakMb), AIM_MB, 'MB'),
    },
    { name: 'eval: peak RSS against 600,000-item pages / against pages of what was asked', value: Math.round((hostile.peakMb / baseline.peakMb) * 100) / 100, unit: '×' },
  ]
}

runWhenMain(__filename, benchEvalMemory)
