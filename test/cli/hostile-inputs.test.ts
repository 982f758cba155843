import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_WORKSPACE_BYTES } from '../../src/main/workspaces/workspace-files'
import { formatBytes } from '../../src/shared/byte-size'
import { MAX_JUDGMENT_FILE_BYTES } from '../../src/shared/relevance/judgment-files'
import { cli, WORLD } from './spawn-cli'

/**
 * The command line given inputs at and past the sizes its files allow, as a
 * person or a CI job would give them (the bin spawned, real files): each is
 * refused as bad input (exit 2) with a sentence naming the file and the
 * rule, before anything runs; never an internal error, a stack trace, a
 * pinned CPU or a read of the whole of an endless file.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-hostile-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const world = JSON.parse(readFileSync(WORLD, 'utf8')) as { sets: { queries: { id: string; text: string }[]; judgments: unknown[] }[] }
const exampleSet = world.sets[0]!

/** No internal error, no stack frame: the words of a refusal only. */
function refusedAsBadInput(run: { status: number | null; stdout: string; stderr: string }): void {
  expect(run.status, run.stdout + run.stderr).toBe(2)
  expect(run.stderr).not.toMatch(/internal error|^\s+at /m)
  // Refused before the run: nothing was evaluated or tested.
  expect(run.stdout).not.toMatch(/Evaluating|Running/)
}

describe('query-explorer and hostile input files', () => {
  it('stops reading RRE ratings at the 200,000-judgment cap: a group of 200,001 documents and 20,000 queries is refused at once', async () => {
    // A group's relevant_documents judge every query of the group: 20,000 × 200,001 pairs, unless reading stops at the cap.
    const documents: Record<string, { gain: number }> = {}
    for (let i = 0; i <= 200_000; i++) documents[`d${i}`] = { gain: 1 }
    const queries = Array.from({ length: 20_000 }, (_, i) => ({ template: 'template.json', placeholders: { $query: `query ${i}` } }))
    const path = join(dir, 'capped.json')
    writeFileSync(path, JSON.stringify({ index: 'x', query_groups: [{ name: 'all', queries, relevant_documents: documents }] }))
    const run = await cli(['eval', WORLD, '--judgments', path])
    refusedAsBadInput(run)
    expect(run.stderr).toContain('holds more than 200,000 judgments, more than a set may hold')
  }, 60_000)

  it('reads an RRE group whose queries all name the same query once per query, not once per entry', async () => {
    // 10,000 entries of one query text under 100,000 shared documents: 10^9 judgments read, unless the group's shared documents judge each query once.
    const documents: Record<string, { gain: number }> = {}
    for (let i = 0; i < 100_000; i++) documents[`d${i}`] = { gain: 1 }
    const queries = Array.from({ length: 10_000 }, () => ({ placeholders: { $query: exampleSet.queries[0]!.text } }))
    // One entry with no text, so the file is refused (exit 2) once read rather than evaluated.
    queries.push({ placeholders: {} as { $query: string } })
    const path = join(dir, 'repeated.json')
    writeFileSync(path, JSON.stringify({ query_groups: [{ name: 'one', queries, relevant_documents: documents }] }))
    const run = await cli(['eval', WORLD, '--judgments', path])
    refusedAsBadInput(run)
    expect(run.stderr).toContain('query_groups[0].queries[10000].placeholders: has no "$query" placeholder')
  }, 60_000)

  it('refuses a workspace with 100,000 bad judgments in eval and test: the first few problems and how many more', async () => {
    const path = join(dir, 'bad-grades.qxw.json')
    const bad = structuredClone(world)
    bad.sets[0]!.judgments = Array.from({ length: 100_000 }, (_, i) => ({ query: exampleSet.queries[i % exampleSet.queries.length]!.id, item: `i${i}`, grade: 200 }))
    writeFileSync(path, JSON.stringify(bad))
    for (const command of ['eval', 'test']) {
      const run = await cli([command, path])
      refusedAsBadInput(run)
      expect(run.stderr).toMatch(/^"bad-grades\.qxw\.json" is not a valid workspace: sets\[0\]\.judgments\[0\]\.grade: /)
      expect(run.stderr).toMatch(/\(and 99,995 more\)\.\n$/)
      expect(run.stderr.length).toBeLessThan(2_000)
    }
  }, 60_000)

  it('refuses a judgments file with 100,000 bad lines with ten of them and how many more', async () => {
    const path = join(dir, 'bad.qrels')
    writeFileSync(path, Array.from({ length: 100_000 }, (_, i) => `q01 0 item${i} 9\n`).join(''))
    const run = await cli(['eval', WORLD, '--judgments', path])
    refusedAsBadInput(run)
    expect(run.stderr).toContain('line 1: "9" is not a grade of the set\'s scale')
    expect(run.stderr).toContain('(and 99,990 more)')
    expect(run.stderr.split('\n').length).toBeLessThan(20)
  }, 60_000)

  it('reads --judgments and url input through a bound: /dev/zero and a 200 MB file are refused at 20 MiB, not read whole', async () => {
    const sparse = join(dir, 'huge.qrels')
    writeFileSync(sparse, '')
    truncateSync(sparse, 200 * 1024 * 1024)
    for (const path of ['/dev/zero', sparse]) {
      const run = await cli(['eval', WORLD, '--judgments', path])
      refusedAsBadInput(run)
      expect(run.stderr).toContain(`--judgments: "${path}" holds more than ${formatBytes(MAX_JUDGMENT_FILE_BYTES)}, more than a judgments file may`)
    }
    const url = await cli(['url', '/dev/zero', '--base', 'https://query.example.com'])
    refusedAsBadInput(url)
    expect(url.stderr).toContain(`/dev/zero: the request holds more than ${formatBytes(MAX_WORKSPACE_BYTES)}, more than a request file may`)
  }, 60_000)

  it('refuses --junit and --trec-run paths that cannot be written (a folder, /proc/self/…) with exit 2, before the run', async () => {
    const folder = join(dir, 'a-folder')
    mkdirSync(folder)
    const cases: [string[], string][] = [
      [['eval', WORLD, '--junit', folder], `--junit: "${folder}" is a folder, not a file; nothing was run.`],
      [['eval', WORLD, '--trec-run', '/proc/self/x.run'], '--trec-run: "/proc/self/x.run" cannot be written'],
      [['eval', WORLD, '--junit', '/proc/self/x.xml'], '--junit: "/proc/self/x.xml" cannot be written'],
      [['eval', WORLD, '--a', 'config=default', '--b', 'config=production', '--trec-run', join(folder, 'x.run')], ''],
      [['test', WORLD, '--junit', folder], `--junit: "${folder}" is a folder, not a file; nothing was run.`],
      [['test', WORLD, '--junit', '/proc/self/report.xml'], '--junit: "/proc/self/report.xml" cannot be written'],
    ]
    // An experiment writes A's run to x.a.run and B's to x.b.run: a folder at B's path is found before the run too.
    mkdirSync(join(folder, 'x.b.run'))
    cases[3]![1] = `--trec-run: "${join(folder, 'x.b.run')}" is a folder, not a file; nothing was run.`
    for (const [args, message] of cases) {
      const run = await cli(args)
      refusedAsBadInput(run)
      expect(run.stderr, args.join(' ')).toContain(message)
    }
    expect(existsSync(join(folder, 'x.a.run'))).toBe(false)
  }, 120_000)
})
