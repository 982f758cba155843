import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import { cli, WORLD } from './spawn-cli'
import { startWorldService } from '../fixtures/world-service'

/**
 * `query-explorer compare`, spawned as a person or CI runs it: the example
 * workspace's "san" query on the default and production configurations of
 * the embedded demo (started inside the command), a side the service
 * refuses, two connections of one file, and bad input.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-compare-'))
const SAN = ['--query', 'San, default ranking']


interface JsonChange {
  key: string
  rankA: number | null
  rankB: number | null
  move: { kind: string; by?: number }
  label: string
  moveText: string
}

describe('query-explorer compare', () => {
  let service: RunningService
  const secret = `compare-${Date.now()}-secret`
  /** world.qxw.json with a second connection, "Staging EU", on a service this test runs. */
  let twoConnections: string

  beforeAll(async () => {
    service = await startWorldService('ci-runner', secret)
    const world = JSON.parse(readFileSync(WORLD, 'utf8'))
    world.connections.push({ ...world.connections[0], id: 'staging', name: 'Staging EU', clientId: 'ci-runner', authUrl: service.authUrl, queryUrl: service.queryUrl })
    twoConnections = join(dir, 'two.qxw.json')
    writeFileSync(twoConnections, JSON.stringify(world))
  })
  afterAll(async () => {
    await service?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints the figures and the rank diff of default vs production: Sanaa new in B at rank 1, RBO below 1', async () => {
    const run = await cli(['compare', WORLD, ...SAN, '--a', 'config=default', '--b', 'config=production'])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('Comparing "San, default ranking" of world.qxw.json, top 10')
    expect(run.stdout).toMatch(/^ {2}A {2}Demo \(the embedded demo service\), config default: 200, 5,628 results, [\d,]+ ms$/m)
    expect(run.stdout).toMatch(/^ {2}B {2}Demo \(the embedded demo service\), config production: 200, /m)
    expect(run.stdout).toMatch(/^ +– +1 {2}new in B {5}71137 Sanaa$/m)
    expect(run.stdout).toMatch(/^ +1 +9 {2}↓8 {11}3167796 San Potito Sannitico$/m)
    expect(run.stdout).toMatch(/^ +2 +– {2}gone from B {2}3168001 San Martino Sannita$/m)
    for (const figure of ['overlap@10', 'Jaccard@10', "Kendall's tau", 'total', 'duration']) expect(run.stdout).toContain(`  ${figure}`)
    const rbo = Number(/^ {2}RBO +([\d.]+)/m.exec(run.stdout)?.[1])
    expect(rbo).toBeGreaterThan(0)
    expect(rbo).toBeLessThan(1)
  })

  it('prints a machine-readable comparison with --json, to the depth asked', async () => {
    const run = await cli(['compare', WORLD, ...SAN, '--b', 'config=production', '--depth', '50', '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as {
      workspace: string
      query: string
      depth: number
      a: { keys: string[]; status: number; total: number }
      b: { keys: string[]; labels: string[] }
      figures: { rbo: number; overlap: number; jaccard: number; kendallTau: number | null }
      changes: JsonChange[]
    }
    expect(report).toMatchObject({ workspace: 'world.qxw.json', query: 'San, default ranking', depth: 50, a: { status: 200, total: 5628 } })
    expect(report.a.keys).toHaveLength(50)
    expect(report.b.keys[0]).toBe('71137')
    expect(report.figures.rbo).toBeLessThan(1)
    expect(report.changes.find((change) => change.key === '71137')).toMatchObject({ rankB: 1, label: 'Sanaa', move: { kind: expect.stringMatching(/new|up/) } })
  })

  it('says what the figures cover when both sides return fewer than the depth: 9 of 9, not 9 of 50', async () => {
    const spanish = ['compare', WORLD, '--query', 'Big Spanish cities', '--a', 'config=default', '--b', 'config=production', '--depth', '50']
    const run = await cli(spanish)
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^ {2}overlap@50 +9 of 9 \(both sides returned only 9\) +items in both top 50s$/m)
    expect(run.stdout).not.toContain('9 of 50')
    expect(run.stdout).toMatch(/^ {2}Jaccard@50 +1\.000 +.*; over the 9 items each side returned$/m)
    expect(run.stdout).toMatch(/^ {2}RBO +[\d.]+ +.*; over the 9 items each side returned$/m)

    const json = await cli([...spanish, '--json'])
    expect(json.status, json.stderr).toBe(0)
    const report = JSON.parse(json.stdout) as { figures: { overlap: number }; coverage: unknown }
    expect(report.figures.overlap).toBe(9)
    expect(report.coverage).toEqual({ depth: 50, a: 9, b: 9, possible: 9, note: 'both sides returned only 9' })
  })

  it('shows a side the service refuses next to the other, and exits 1', async () => {
    const run = await cli(['compare', WORLD, ...SAN, '--b', 'config=no-such-config'])
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/A {2}Demo \(the embedded demo service\), config default: 200, 5,628 results/)
    expect(run.stdout).toContain('B  Demo (the embedded demo service), config no-such-config: failed: The service answered 404: ')
    expect(run.stdout).not.toContain('Rank changes')
  })

  it('compares two connections of one file, and two sides on one connection share its token', async () => {
    const env = { QUERY_EXPLORER_SECRET_STAGING_EU: secret }
    const across = await cli(['compare', twoConnections, ...SAN, '--a', 'connection=Demo', '--b', 'connection=Staging EU'], env)
    expect(across.status, across.stdout + across.stderr).toBe(0)
    expect(across.stdout).toContain('B  Staging EU, config default: 200')
    // The same data and configuration: the same ranking.
    expect(across.stdout).toMatch(/^ {2}RBO +1\.000 /m)

    const before = service.tokenRequestCount()
    const shared = await cli(['compare', twoConnections, ...SAN, '--connection', 'staging', '--a', 'config=default', '--b', 'config=production', '--json'], env)
    expect(shared.status, shared.stderr).toBe(0)
    expect(service.tokenRequestCount() - before).toBe(1)
    expect(shared.stdout + shared.stderr).not.toContain(secret)
  })

  it('refuses bad input with exit 2, saying what is wrong', async () => {
    const cases: [string[], string][] = [
      [['compare', WORLD, '--a', 'config=default'], '--query: name the saved query of world.qxw.json to compare'],
      [['compare', WORLD, '--query', 'Nope'], '--query: "Nope" is not a saved query of world.qxw.json (it has: "Big Spanish cities"'],
      [['compare', WORLD, ...SAN, '--b', 'confg=production'], '--b: "confg" is not a side setting'],
      [['compare', WORLD, ...SAN, '--a', 'config'], '--a: "config" needs a value, as in config=NAME.'],
      [['compare', WORLD, ...SAN, '--a', 'connection=Nope'], '--connection: "Nope" is not a connection of world.qxw.json'],
      [['compare', WORLD, ...SAN, '--a', 'version=two'], '--a: version "two" is not a version number'],
      [['compare', WORLD, ...SAN, '--depth', '20'], '--depth: "20" is not one of 10, 50, 100.'],
      [['compare', join(dir, 'missing.qxw.json'), ...SAN], '"missing.qxw.json" was not found.'],
      [['compare', twoConnections, ...SAN, '--b', 'connection=staging'], 'set QUERY_EXPLORER_CLIENT_SECRET or QUERY_EXPLORER_SECRET_STAGING_EU'],
    ]
    const runs = await Promise.all(cases.map(([args]) => cli(args)))
    cases.forEach(([args, message], index) => {
      const run = runs[index]!
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2)
      expect(run.stderr).toContain(message)
    })
  })
})
