import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ISSUE_EXAMPLE, ISSUE_EXAMPLE_URL } from '../fixtures/issue-example'

/** The real launcher, spawned as a user would run it. */
const ROOT = resolve(__dirname, '../..')
const BIN = join(ROOT, 'bin/query-explorer.cjs')
const dir = mkdtempSync(join(tmpdir(), 'query-explorer-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

function cli(args: string[], input?: string): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 120_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return path
}

const EXAMPLE = ISSUE_EXAMPLE
const EXAMPLE_URL = ISSUE_EXAMPLE_URL

describe('query-explorer url', () => {
  it('prints the URL of a request file', () => {
    const run = cli(['url', file('example.json', EXAMPLE), '--base', 'https://q.example.com/'])
    expect(run).toEqual({ status: 0, stdout: `${EXAMPLE_URL}\n`, stderr: '' })
  })

  it('reads the request from standard input with -', () => {
    const run = cli(['url', '-', '--base=https://q.example.com'], JSON.stringify(EXAMPLE))
    expect(run).toEqual({ status: 0, stdout: `${EXAMPLE_URL}\n`, stderr: '' })
  })

  it('reads a file saved with a byte order mark', () => {
    expect(cli(['url', file('bom.json', `\uFEFF${JSON.stringify(EXAMPLE)}`), '--base', 'https://q.example.com']).stdout).toBe(`${EXAMPLE_URL}\n`)
  })

  it('exits 2 with one line per validation problem, naming field and rule', () => {
    const bad = { ...EXAMPLE, workspace: '', responseType: 'statistics', steps: [{ context: {} }, { endpoint: 'search', parameters: { query: '' } }], options: { count: 0, cutoff: 2, level: 1 } }
    const run = cli(['url', file('bad.json', bad), '--base', 'https://q.example.com'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'workspace: Workspace name must not be empty',
      'steps[0]: Step 1: a context step needs at least one parameter',
      'steps[1].parameters.query: Step 2 (search): parameter "query" has an empty value; the service cannot receive an empty value',
      'options.count: Option count must be a whole number from 1 to 100, not 0',
      'options.cutoff: Option cutoff must be a number from 0 to 1, not 2',
      'options.level: Option level applies to results and results,count, not to statistics',
    ])
  })

  it('accepts empty values with --allow-empty-values', () => {
    const empty = { ...EXAMPLE, steps: [{ endpoint: 'search', parameters: { query: '' } }], options: {} }
    expect(cli(['url', file('empty.json', empty), '--base', 'http://h', '--allow-empty-values']).stdout).toBe('http://h/4/world/api/places/e/search/p/query//results\n')
  })

  it('exits 2 naming the path of a field that does not fit the schema', () => {
    const run = cli(['url', '-', '--base', 'http://h'], JSON.stringify({ ...EXAMPLE, steps: [{ endpoint: 'search', parameters: { query: 3 } }], options: { count: 'ten' } }))
    expect(run.status).toBe(2)
    expect(run.stderr).toBe('steps[0].parameters.query: expected string, received number\noptions.count: expected number, received string\n')
  })

  it('exits 2 on a parameter given twice with different values', () => {
    const text = JSON.stringify(EXAMPLE).replace('"query":"new york"', '"query":"new york","query":"paris"')
    const run = cli(['url', '-', '--base', 'http://h'], text)
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('steps[1].parameters.query: Step 2 (search): parameter "query" is given twice with different values ("new york" and "paris")')
  })

  it('exits 2 on bad JSON, a missing file, a missing or bad --base', () => {
    expect(cli(['url', '-', '--base', 'http://h'], '{').stderr).toMatch(/^\(json\): not valid JSON/)
    const missing = cli(['url', join(dir, 'nope.json'), '--base', 'http://h'])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/nope\.json: cannot read the request \(ENOENT/)
    const noBase = cli(['url', file('nobase.json', EXAMPLE)])
    expect(noBase).toMatchObject({ status: 2, stderr: '--base: the query URL is required, e.g. --base https://query.example.com\n' })
    expect(cli(['url', file('nobase.json', EXAMPLE), '--base', 'q.example.com']).stderr).toMatch(/^--base: "q.example.com" is not an http\(s\) URL/)
    // Without a version of its own, the request's URL would read "7" as the version.
    const unversioned = file('unversioned.json', { ...EXAMPLE, version: undefined })
    expect(cli(['url', unversioned, '--base', 'http://h/v/7'])).toMatchObject({ status: 2, stdout: '', stderr: expect.stringMatching(/reads as a version/) })
  })

  it('takes the base from the JSON that parse prints', () => {
    const parsed = cli(['parse', EXAMPLE_URL])
    const back = cli(['url', '-'], parsed.stdout)
    expect(back).toEqual({ status: 0, stdout: `${EXAMPLE_URL}\n`, stderr: '' })
  })
})

describe('query-explorer parse', () => {
  it('prints {base, ...request} as JSON', () => {
    const run = cli(['parse', EXAMPLE_URL])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({ base: 'https://q.example.com', ...EXAMPLE })
    expect(Object.keys(JSON.parse(run.stdout))[0]).toBe('base')
  })

  it('reads a pasted URL: no version, + in the query, options out of order, no response type', () => {
    const run = cli(['parse', 'http://localhost:8080/world/api/places/e/search/p/query/paris/?offset=10&config=my+config&count=20'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      base: 'http://localhost:8080',
      workspace: 'world',
      api: 'places',
      steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
      responseType: 'results',
      options: { config: 'my config', count: 20, offset: 10 },
    })
  })

  it('exits 2 naming the segment it cannot read', () => {
    const run = cli(['parse', 'http://h/w/api/a/e/s/p/q/1/p/q/2/results'])
    expect(run).toEqual({
      status: 2,
      stdout: '',
      stderr: 'url segment "p/q/2": parameter "q" of endpoint "s" is given twice with different values ("1" and "2")\n',
    })
  })

  it('exits 2 with the validation problems of a URL it can read', () => {
    const run = cli(['parse', 'http://h/w/api/a/statistics?rank=5'])
    expect(run.status).toBe(2)
    expect(run.stderr).toBe('steps: The request needs at least one endpoint step\noptions.rank: Option rank applies to resultitem only, not to statistics\n')
  })

  it('reads count on statistics, as the TypeScript client sends it, and an option it does not know, and says so on stderr', () => {
    const run = cli(['parse', 'https://rest.spinque.com/4/world/api/places/e/search/p/query/paris/statistics?count=10&dev_version=master'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      base: 'https://rest.spinque.com',
      version: '4',
      workspace: 'world',
      api: 'places',
      steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
      responseType: 'statistics',
      options: { count: 10, extra: { dev_version: 'master' } },
    })
    expect(run.stderr).toBe(
      'warning: options.count: Option count: the seed says it applies to results, results,count, resultpage and options, not to statistics; ' +
        'the official clients send it with statistics, so it is sent. A real deployment ignores it; the embedded service refuses it (400)\n' +
        'warning: options.extra.dev_version: Option dev_version is not one the seed defines: it is sent as written, and a deployment that does not use it ignores it\n',
    )
    // And back: url writes the unknown option after the known ones, as it was given.
    const back = cli(['url', '-'], run.stdout)
    expect(back.status).toBe(0)
    expect(back.stdout).toBe('https://rest.spinque.com/4/world/api/places/e/search/p/query/paris/statistics?count=10&dev_version=master\n')
  })
})

describe('query-explorer usage', () => {
  // Help and usage errors are main.test.ts's (in-process); here, the launcher as npx runs it.
  it('runs as npx query-explorer in the repository', () => {
    const result = spawnSync('npx', ['--no', 'query-explorer', 'parse', 'http://h/w/api/a/e/s'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ base: 'http://h', workspace: 'w', steps: [{ endpoint: 's', parameters: {} }] })
  })
})
