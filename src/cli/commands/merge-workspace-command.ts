import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, promises as fs } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { mergeWorkspaces } from '../../shared/workspace/workspace-merge'
import { layoutOf, parseWorkspace, serializeParsed, type Workspace } from '../../shared/workspace/workspace-file'
import { MAX_WORKSPACE_BYTES, writeWorkspaceText } from '../../main/workspaces/workspace-files'
import { readTextFile } from '../../main/storage/text-file'
import { EXIT_OK, InputError, stringOption, type Command } from '../command'
import { withFlags } from '../flags'
import type { CliIo } from '../io'

/**
 * `merge-workspace <base> <ours> <theirs>`: git's merge driver for workspace
 * files (git runs it with %O %A %B %P). The three versions are read as the app
 * reads them and merged by key (workspace-merge.ts), so two people rating the
 * same set merge without a conflict; the result is written over <ours>, as a
 * driver must, in ours' layout. When the versions conflict, or one does not
 * read, git's own line merge (`git merge-file`) is what <ours> gets, conflict
 * markers and all, as without the driver, and the conflicts are said in words
 * on standard error. <ours> is only ever replaced whole (a rename), never left
 * half written.
 *
 * `--install [DIR]` sets the driver up for a repository.
 */

export const EXIT_CONFLICT = 1
const DRIVER = 'query-explorer'
const ATTRIBUTE = `*.qxw.json merge=${DRIVER}`
const DRIVER_NAME = 'Query Explorer workspace files (judgments by query, item and rater)'

export const mergeWorkspaceCommand: Command = {
  name: 'merge-workspace',
  summary: "merge a workspace file's three versions as git's merge driver (two people's ratings of one set merge)",
  usage: '<base> <ours> <theirs> [--name PATH] | --install [DIR]',
  ...withFlags([
    '<base> <ours> <theirs> the common version and the two sides (git: %O %A %B); the merge is written',
    '                       to <ours>, in its layout',
    {
      name: { type: 'string', value: 'PATH', help: "the file's path in the repository (git: %P), for the messages" },
      install: {
        type: 'boolean',
        term: '--install [DIR]',
        help: [
          `add "${ATTRIBUTE}" to DIR's .gitattributes (default: this folder)`,
          "and set the driver in the repository's git config, running this clone's",
          'command line; outside a git work tree, print the two git config lines to run',
        ],
      },
    },
    'Exit status: 0 merged; 1 a conflict (or a version that does not read): <ours> holds git\'s line',
    'merge with conflict markers and each conflict is named on standard error; 2 bad input.',
  ]),
  positionals: { min: 0, max: 3 },
  async run({ positionals, values }, io) {
    if (values.install === true) {
      if (positionals.length > 1) throw new InputError([`--install: takes one folder at most, not ${positionals.length} arguments.`])
      return install(positionals[0] ?? '.', io)
    }
    if (positionals.length !== 3) throw new InputError([`merge-workspace: takes <base> <ours> <theirs> (git: %O %A %B), not ${positionals.length} argument${positionals.length === 1 ? '' : 's'}.`])
    const [base, ours, theirs] = positionals as [string, string, string]
    return merge({ base, ours, theirs }, stringOption(values, 'name') ?? 'the workspace file', io)
  },
}

type Versions = { base: string; ours: string; theirs: string }
type Read = { ok: true; workspace: Workspace | undefined; text: string } | { ok: false; message: string }

async function merge(paths: Versions, name: string, io: CliIo): Promise<number> {
  const [base, ours, theirs] = await Promise.all([readVersion(paths.base, name, 'base'), readVersion(paths.ours, name, 'ours'), readVersion(paths.theirs, name, 'theirs')])
  const unread = [base, ours, theirs].flatMap((read) => (read.ok ? [] : [read.message]))
  if (unread.length > 0) return lineMerge(paths, name, ['a version does not read as a workspace, so the line merge stands:', ...unread], io)
  if (!base.ok || !ours.ok || !theirs.ok || !ours.workspace || !theirs.workspace) {
    return lineMerge(paths, name, [`"${name}" is empty on one side, so the line merge stands.`], io)
  }
  const merged = mergeWorkspaces(base.workspace, ours.workspace, theirs.workspace)
  if (!merged.ok) return lineMerge(paths, name, [`${merged.conflicts.length} conflict${merged.conflicts.length === 1 ? '' : 's'} the workspace merge cannot settle:`, ...merged.conflicts], io)
  let text: string
  try {
    text = serializeParsed(merged.workspace, layoutOf(ours.text))
  } catch (error) {
    return lineMerge(paths, name, [(error as Error).message.replace('The workspace was not saved', 'The merge cannot be written')], io)
  }
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_WORKSPACE_BYTES) {
    return lineMerge(paths, name, [`the merged file would be ${formatBytes(bytes)}, more than a workspace file may be (${formatBytes(MAX_WORKSPACE_BYTES)}).`], io)
  }
  await writeWorkspaceText(paths.ours, text)
  return EXIT_OK
}

/** A version's text and workspace; an empty base (a file added on both sides) is no base. */
async function readVersion(path: string, name: string, side: keyof Versions): Promise<Read> {
  const label = `${name} (${side})`
  const read = await readTextFile(path, label, {
    maxBytes: MAX_WORKSPACE_BYTES,
    noun: 'a workspace file',
    tooLarge: (fileName, size) => `"${fileName}" is too large to be a workspace file (${size === null ? 'more' : formatBytes(size)} than ${formatBytes(MAX_WORKSPACE_BYTES)}).`,
  })
  if (!read.ok) return read
  if (read.text.trim() === '') return { ok: true, workspace: undefined, text: read.text }
  const parsed = parseWorkspace(read.text, label)
  return parsed.ok ? { ok: true, workspace: parsed.workspace, text: read.text } : parsed
}

/**
 * git's own line merge of the three versions into <ours>, as git would have
 * made it without the driver: run on a copy beside <ours>, which then
 * replaces it, so <ours> is never half written. Exit 1 either way: git then
 * marks the file as conflicted.
 */
async function lineMerge(paths: Versions, name: string, why: string[], io: CliIo): Promise<number> {
  io.err(`query-explorer merge-workspace: ${name}: ${why[0]}`)
  for (const line of why.slice(1)) io.err(`  ${line}`)
  const temp = `${paths.ours}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await fs.copyFile(paths.ours, temp)
    const status = await git(['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', temp, paths.base, paths.theirs])
    // 0 and up: the number of conflicts (the lines may merge where the workspace does not); negative (255): it failed.
    if (status.code > 127) throw new Error(status.stderr.trim() || `exit status ${status.code}`)
    await fs.rename(temp, paths.ours)
    io.err(`query-explorer merge-workspace: ${name} holds git's line merge${status.code > 0 ? ' with conflict markers' : ''}: resolve it, then git add it.`)
  } catch (error) {
    await fs.rm(temp, { force: true })
    io.err(`query-explorer merge-workspace: git merge-file did not run (${(error as Error).message}); ${name} holds our side as it was.`)
  }
  return EXIT_CONFLICT
}

type GitRun = { code: number; stdout: string; stderr: string }

/** git with these arguments; a status that is not 0 is returned, not thrown; git not found is thrown. */
function git(args: string[]): Promise<GitRun> {
  return new Promise((resolvePromise, reject) => {
    execFile('git', args, { encoding: 'utf8', maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error)
      else resolvePromise({ code: error ? (error.code as number) : 0, stdout, stderr })
    })
  })
}

/** A word as POSIX sh reads it back: git runs a driver's line through the shell. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The launcher of this clone (bin/query-explorer.cjs), found from this module
 * up: its sources (src/cli/commands) or its bundle (out/cli) sit inside it.
 */
export function launcherPath(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const bin = join(dir, 'bin', 'query-explorer.cjs')
    if (existsSync(bin) && existsSync(join(dir, 'package.json'))) return bin
    if (dirname(dir) === dir) throw new Error(`no bin/query-explorer.cjs above ${from}`)
  }
}

/**
 * The driver's command line: node and this clone's launcher by absolute path,
 * not `npx query-explorer`. In a repository that is not this clone npx finds
 * no such bin and, when its standard input is not a terminal (as under git),
 * fetches whatever package of that name the registry has and runs it
 * without asking; here it would also copy this clone into npx's cache first.
 */
export function driverLine(launcher: string = launcherPath()): string {
  return `node ${shellWord(launcher)} merge-workspace %O %A %B --name %P`
}

async function install(dir: string, io: CliIo): Promise<number> {
  const folder = resolve(dir)
  const info = await fs.stat(folder).catch(() => null)
  if (!info?.isDirectory()) throw new InputError([`--install: "${dir}" is not a folder.`])
  const attributes = join(folder, '.gitattributes')
  const existing = await fs.readFile(attributes, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''
    throw new InputError([`--install: "${attributes}" could not be read (${error.code ?? error.message}).`])
  })
  const has = existing.split(/\r?\n/).some((line) => {
    const [pattern, ...rest] = line.trim().split(/\s+/)
    return pattern === '*.qxw.json' && rest.includes(`merge=${DRIVER}`)
  })
  if (has) io.out(`${attributes}: already has "${ATTRIBUTE}".`)
  else {
    await writeWorkspaceText(attributes, `${existing}${existing === '' || existing.endsWith('\n') ? '' : '\n'}${ATTRIBUTE}\n`)
    io.out(`${attributes}: added "${ATTRIBUTE}".`)
  }
  const driver = driverLine()
  const settings: [string, string][] = [
    [`merge.${DRIVER}.name`, DRIVER_NAME],
    [`merge.${DRIVER}.driver`, driver],
  ]
  const inside = await git(['-C', folder, 'rev-parse', '--is-inside-work-tree']).catch(() => null)
  if (inside?.code !== 0 || inside.stdout.trim() !== 'true') {
    io.out(`"${dir}" is not in a git work tree: in the repository that holds the workspace files, run:`)
    for (const [key, value] of settings) io.out(`  git config ${key} ${shellWord(value)}`)
    return EXIT_OK
  }
  for (const [key, value] of settings) {
    const set = await git(['-C', folder, 'config', '--local', key, value])
    if (set.code !== 0) throw new InputError([`--install: git config ${key} failed: ${set.stderr.trim()}`])
    io.out(`git config ${key} ${shellWord(value)}`)
  }
  io.out('Workspace files now merge by query, item and rater in this repository.')
  return EXIT_OK
}
