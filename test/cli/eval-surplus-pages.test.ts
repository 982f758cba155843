import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../main/support'
import { serverWorkspace } from '../fixtures/server-workspace'
import { cliInProcess } from './spawn-cli'

/**
 * `query-explorer eval` against a hostile server on 127.0.0.1 that answers
 * every page with 20,000 items, whatever count it was asked (ids counted
 * from the offset asked, best first): an evaluation, and each side of an
 * experiment, keeps exactly the depth asked of every query, its TREC run
 * holds that many lines a query, and the metrics are computed over that
 * depth, not over what the server added.
 */

const ITEMS = 20_000
const dir = mkdtempSync(join(tmpdir(), 'qe-cli-surplus-'))
const QUERIES = ['q1', 'q2', 'q3']

function page(offset: number): string {
  const items: string[] = []
  for (let i = offset; i < offset + ITEMS; i++) items.push(`{"rank":${i + 1},"probability":${1 - i / 100_000},"tuple":[{"id":"${i}","class":["C"]}]}`)
  return `{"offset":${offset},"count":${ITEMS},"type":["OBJ"],"items":[${items.join(',')}]}`
}

/** A workspace whose set judges, for each query, the item at `ranks` (1-based) Perfect. */
function workspace(origin: string, ranks: number[]): string {
  const path = join(dir, `ranks-${ranks.join('-')}.qxw.json`)
  const file = serverWorkspace(origin, [
    {
      name: 'Surplus',
      queries: QUERIES.map((id) => ({ id, text: `text of ${id}` })),
      judgments: QUERIES.flatMap((query) => ranks.map((rank) => ({ query, item: String(rank - 1), grade: 3 }))),
    },
  ])
  writeFileSync(path, JSON.stringify(file))
  return path
}

/** Each query's docids in the order a TREC run file lists them. */
function runLines(path: string): Map<string, string[]> {
  const byQuery = new Map<string, string[]>()
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const [qid, , docid] = line.split(' ')
    byQuery.set(qid!, [...(byQuery.get(qid!) ?? []), docid!])
  }
  return byQuery
}

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i))

describe('query-explorer eval against pages holding more than was asked', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', server.origin)
      const body = page(Number(url.searchParams.get('offset') ?? 0))
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('--depth 10: 10 items kept a query, 10 run lines a query, recall@20 over those 10', async () => {
    // Judged Perfect: ranks 3 and 15. Within depth 10 only the first is found.
    const file = workspace(server.origin, [3, 15])
    const runFile = join(dir, 'depth-10.run')
    const run = await cliInProcess(['eval', file, '--depth', '10', '--metrics', 'ndcg@10,recall@20', '--json', '--trec-run', runFile])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as { depth: number; queries: { id: string; returned: number; scores: Record<string, number> }[]; means: Record<string, number> }
    expect(report.depth).toBe(10)
    expect(report.queries.map((query) => [query.id, query.returned])).toEqual(QUERIES.map((id) => [id, 10]))
    for (const query of report.queries) expect(query.scores['recall@20']).toBe(0.5)
    expect(report.means['recall@20']).toBe(0.5)
    const lines = runLines(runFile)
    expect([...lines.keys()]).toEqual(QUERIES)
    for (const id of QUERIES) expect(lines.get(id)).toEqual(ids(0, 10))
  }, 60_000)

  it('--depth 150, over two pages: 150 items kept a query, in the order the pages gave them', async () => {
    const file = workspace(server.origin, [3, 160])
    const runFile = join(dir, 'depth-150.run')
    const run = await cliInProcess(['eval', file, '--depth', '150', '--metrics', 'recall@200', '--json', '--trec-run', runFile])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as { queries: { returned: number; scores: Record<string, number> }[] }
    expect(report.queries.map((query) => query.returned)).toEqual([150, 150, 150])
    for (const query of report.queries) expect(query.scores['recall@200']).toBe(0.5)
    for (const id of QUERIES) expect(runLines(runFile).get(id)).toEqual(ids(0, 150))
  }, 60_000)

  it('an experiment (--a, --b): each side keeps 10 items a query, in its run file and its means', async () => {
    const file = workspace(server.origin, [3, 15])
    const runFile = join(dir, 'experiment.run')
    const run = await cliInProcess(['eval', file, '--a', 'config=default', '--b', 'config=production', '--depth', '10', '--metrics', 'recall@20', '--json', '--trec-run', runFile])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as { sides: { side: string; means: Record<string, number>; failed: number }[] }
    expect(report.sides.map((side) => [side.side, side.means['recall@20'], side.failed])).toEqual([
      ['A', 0.5, 0],
      ['B', 0.5, 0],
    ])
    for (const side of ['a', 'b']) {
      const lines = runLines(join(dir, `experiment.${side}.run`))
      for (const id of QUERIES) expect(lines.get(id), side).toEqual(ids(0, 10))
    }
  }, 60_000)
})
