import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { driverLine } from '../../src/cli/commands/merge-workspace-command'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { ratersOf } from '../../src/shared/relevance/raters'
import { withRating } from '../../src/shared/relevance/set-edits'
import { layoutOf, parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { isolatedGit } from '../fixtures/isolated-git'
import { sampleWorkspace } from '../fixtures/sample-workspace'
import { useTempDirs } from '../fixtures/temp-dirs'
import { BIN, cli, cliInProcess } from './spawn-cli'

/**
 * The merge driver for workspace files, with real git: two people rate the
 * same items of a set on two branches, each file written by the app's own
 * writer; `git merge` conflicts without the driver (the two raters' lines
 * sort to the same place) and merges with it, both raters' grades kept. The
 * command's own cases (a conflict, a version that does not read, the layout,
 * --install) run it as git would, on three files.
 */

const tempDir = useTempDirs('qe-merge-workspace')
const FILE = 'team.qxw.json'
const SET = 'Top'

const emptySet: QuerySet = {
  name: SET,
  query: 'Paris',
  queries: [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'lyon' },
  ],
  judgments: [],
}
const baseText = serializeWorkspace({ ...sampleWorkspace, sets: [emptySet] })

function read(text: string): Workspace {
  const result = parseWorkspace(text, FILE)
  if (!result.ok) throw new Error(result.message)
  return result.workspace
}

/** The file as the app saves it after `rater` gave these grades: read, rated, written in the layout it was read in. */
function rated(text: string, rater: string, grades: [query: string, item: string, grade: number][]): string {
  const workspace = grades.reduce((done, [query, item, grade]) => withRating(done, SET, { query, item, rater, grade }), read(text))
  return serializeWorkspace(workspace, layoutOf(text))
}

const gradesOf = (text: string) =>
  read(text)
    .sets![0]!.judgments.map(({ query, item, rater, grade }) => `${query} ${item} ${rater} ${grade}`)
    .sort()

function repository(first = 'alice', second = 'bob') {
  const repo = join(tempDir(), 'repo')
  mkdirSync(repo)
  const { env, git, ok } = isolatedGit(repo, tempDir())
  const path = join(repo, FILE)
  const commit = (text: string, message: string) => {
    writeFileSync(path, text)
    ok('add', FILE)
    ok('commit', '-q', '-m', message)
  }
  ok('init', '-q', '-b', 'main')
  commit(baseText, 'a set to rate')
  // Two people rate the same items of the set, each on a branch.
  ok('checkout', '-q', '-b', 'alice')
  commit(rated(baseText, first, [['q1', 'doc-1', 3], ['q1', 'doc-2', 0], ['q2', 'doc-3', 2]]), `${first} rates`)
  ok('checkout', '-q', 'main')
  ok('checkout', '-q', '-b', 'bob')
  commit(rated(baseText, second, [['q1', 'doc-1', 2], ['q1', 'doc-2', 1], ['q2', 'doc-3', 2]]), `${second} rates`)
  return { repo, env, git, ok, text: () => readFileSync(path, 'utf8') }
}

const bothRaters = ['q1 doc-1 alice 3', 'q1 doc-1 bob 2', 'q1 doc-2 alice 0', 'q1 doc-2 bob 1', 'q2 doc-3 alice 2', 'q2 doc-3 bob 2']

describe('git merge of two raters of one set', () => {
  it('conflicts without the driver: both raters insert a line at the same place', () => {
    const { git, text } = repository()
    const merge = git('merge', '--no-edit', 'alice')
    expect(merge.status).toBe(1)
    expect(merge.stdout).toContain(`CONFLICT (content): Merge conflict in ${FILE}`)
    expect(text()).toContain('<<<<<<< ')
  })

  it('merges with the driver --install set up: no conflict, both raters kept, the file as the app writes it', async () => {
    const { repo, env, git, ok, text } = repository()
    const installed = await cli(['merge-workspace', '--install', repo], env)
    expect(installed.stderr).toBe('')
    expect(installed.status).toBe(0)
    expect(readFileSync(join(repo, '.gitattributes'), 'utf8')).toBe('*.qxw.json merge=query-explorer\n')
    expect(ok('config', 'merge.query-explorer.driver').trim()).toBe(`node ${BIN} merge-workspace %O %A %B --name %P`)
    ok('add', '.gitattributes')
    ok('commit', '-q', '-m', 'merge workspace files by judgment')

    const merge = git('merge', '--no-edit', 'alice')
    expect(merge.stderr).toBe('')
    expect(merge.status).toBe(0)
    const merged = text()
    expect(merged).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m)
    expect(gradesOf(merged)).toEqual(bothRaters)
    expect(ratersOf(read(merged).sets![0]!)).toEqual([
      { name: 'alice', kind: 'person' },
      { name: 'bob', kind: 'person' },
    ])
    expect(merged).toBe(serializeWorkspace(read(merged)))
    expect(ok('status', '--porcelain')).toBe('')
  })

  it("leaves git's conflict, markers and all, when one rater graded an item differently on both branches, and says which", async () => {
    const { repo, env, git, text } = repository('alice', 'alice')
    expect((await cli(['merge-workspace', '--install', repo], env)).status).toBe(0)
    const merge = git('merge', '--no-edit', 'alice')
    expect(merge.status).toBe(1)
    expect(merge.stdout).toContain(`CONFLICT (content): Merge conflict in ${FILE}`)
    expect(merge.stderr).toContain('set "Top", query "q1", item "doc-1", rater "alice": graded 2 on ours, graded 3 on theirs (base: no grade)')
    expect(merge.stderr).toContain('set "Top", query "q1", item "doc-2", rater "alice": graded 1 on ours, graded 0 on theirs (base: no grade)')
    expect(text()).toMatch(/^<<<<<<< ours$/m)
  })
})

/** The three versions as git hands them to the driver: files in a folder. */
function versions(base: string, ours: string, theirs: string) {
  const dir = tempDir()
  const paths = { base: join(dir, 'base'), ours: join(dir, 'ours'), theirs: join(dir, 'theirs') }
  writeFileSync(paths.base, base)
  writeFileSync(paths.ours, ours)
  writeFileSync(paths.theirs, theirs)
  const args = ['merge-workspace', paths.base, paths.ours, paths.theirs, '--name', `sets/${FILE}`]
  /** What git's own line merge makes of the three, as the driver's fallback must give. */
  const lineMerge = () => spawnSync('git', ['merge-file', '-p', '-L', 'ours', '-L', 'base', '-L', 'theirs', paths.ours, paths.base, paths.theirs], { encoding: 'utf8' }).stdout
  return { paths, args, lineMerge, ours: () => readFileSync(paths.ours, 'utf8') }
}

describe('merge-workspace <base> <ours> <theirs>', () => {
  it('writes the merge over <ours> in its layout and exits 0', async () => {
    const compact = serializeWorkspace(read(baseText), 'compact')
    const run = versions(baseText, rated(compact, 'alice', [['q1', 'doc-1', 3]]), rated(baseText, 'bob', [['q1', 'doc-1', 1]]))
    expect(await cliInProcess(run.args)).toEqual({ status: 0, stdout: '', stderr: '' })
    expect(layoutOf(run.ours())).toBe('compact')
    expect(gradesOf(run.ours())).toEqual(['q1 doc-1 alice 3', 'q1 doc-1 bob 1'])
  })

  it("on a conflict, leaves git's line merge with its markers in <ours>, names the conflict, exits 1", async () => {
    const run = versions(baseText, rated(baseText, 'alice', [['q1', 'doc-1', 3]]), rated(baseText, 'alice', [['q1', 'doc-1', 1]]))
    const expected = run.lineMerge()
    expect(expected).toContain('<<<<<<< ours')
    const result = await cliInProcess(run.args)
    expect(result.status).toBe(1)
    expect(result.stderr.split('\n')).toEqual([
      `query-explorer merge-workspace: sets/${FILE}: 1 conflict the workspace merge cannot settle:`,
      '  set "Top", query "q1", item "doc-1", rater "alice": graded 3 on ours, graded 1 on theirs (base: no grade)',
      `query-explorer merge-workspace: sets/${FILE} holds git's line merge with conflict markers: resolve it, then git add it.`,
      '',
    ])
    expect(run.ours()).toBe(expected)
  })

  it('on a version that does not read, names it and the problem, and leaves the line merge', async () => {
    const theirs = baseText.replace('"format"', '"formt"')
    const run = versions(baseText, rated(baseText, 'alice', [['q1', 'doc-1', 3]]), theirs)
    const expected = run.lineMerge()
    const result = await cliInProcess(run.args)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`  "sets/${FILE} (theirs)" is not a Query Explorer workspace: it has no "format", expected "query-explorer-workspace".\n`)
    expect(run.ours()).toBe(expected)
  })

  it('reads an empty base (the file added on both sides) as no base', async () => {
    const run = versions('', rated(baseText, 'alice', [['q1', 'doc-1', 3]]), rated(baseText, 'bob', [['q1', 'doc-1', 1]]))
    expect((await cliInProcess(run.args)).status).toBe(0)
    expect(gradesOf(run.ours())).toEqual(['q1 doc-1 alice 3', 'q1 doc-1 bob 1'])
  })

  it('refuses any other number of arguments (exit 2)', async () => {
    const result = await cliInProcess(['merge-workspace', 'a', 'b'])
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'merge-workspace: takes <base> <ours> <theirs> (git: %O %A %B), not 2 arguments.\n' })
  })
})

describe('merge-workspace --install', () => {
  it('outside a git work tree, appends the attribute once and prints the two git config lines', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, '.gitattributes'), '*.png binary')
    const first = await cliInProcess(['merge-workspace', '--install', dir])
    expect(first.status).toBe(0)
    expect(first.stdout.split('\n').slice(1)).toEqual([
      `"${dir}" is not in a git work tree: in the repository that holds the workspace files, run:`,
      "  git config merge.query-explorer.name 'Query Explorer workspace files (judgments by query, item and rater)'",
      `  git config merge.query-explorer.driver '${driverLine()}'`,
      '',
    ])
    await cliInProcess(['merge-workspace', '--install', dir])
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toBe('*.png binary\n*.qxw.json merge=query-explorer\n')
  })

  it('writes the launcher of this clone by absolute path, quoted for the shell git runs it with', () => {
    expect(driverLine(BIN)).toBe(`node ${BIN} merge-workspace %O %A %B --name %P`)
    expect(driverLine("/home/o'neil/query explorer/bin/query-explorer.cjs")).toBe(`node '/home/o'\\''neil/query explorer/bin/query-explorer.cjs' merge-workspace %O %A %B --name %P`)
  })
})
