import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { startBrowserHost } from '../../src/main/host/browser-host'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { RECENT_COPIES_DIR, RECENT_FILE } from '../../src/main/workspaces/recent-workspaces'
import { SESSION_FILE } from '../../src/main/workspaces/session-file'
import { startService, type RunningService } from '../../src/service'
import type { AppInfo, ConnectionView, Draft, RecentWorkspace, WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { parseWorkspace, serializeWorkspace, type Workspace, type WorkspaceConnection } from '../../src/shared/workspace/workspace-file'
import { call, failure, filesUnder, keychainMissing, openCore, search, storedSecret } from './support'

/**
 * The open workspace as the main process keeps it, over the real dispatcher:
 * real files in a temporary data folder, the real demo service, the real
 * keychain. In Electron a FileDialogs object answers with a temporary path,
 * standing in for the user's click in the native dialog.
 */

const missing = await keychainMissing()

type Current = { workspace: WorkspaceView; draft: Draft | null }
type SaveReply = { workspace: WorkspaceView | null; download: { fileName: string; text: string } | null }

const OLD_DEMO: WorkspaceConnection = {
  id: 'demo',
  name: 'Demo',
  authUrl: 'http://127.0.0.1:8080/auth',
  queryUrl: 'http://127.0.0.1:8080/query',
  workspace: 'world',
  api: 'places',
  config: 'default',
  clientId: 'demo',
}

const STAGING: WorkspaceConnection = {
  id: 'staging',
  name: 'Staging',
  authUrl: 'http://127.0.0.1:9/auth',
  queryUrl: 'http://127.0.0.1:9/query',
  workspace: 'world',
  api: 'places',
  clientId: 'staging-client',
}

function workspaceOf(queries: { name: string; connection?: string; notes?: string; request?: QueryRequest }[], connections = [OLD_DEMO], extra: Record<string, unknown> = {}): Workspace {
  return {
    format: 'query-explorer-workspace',
    version: 1,
    connections,
    queries: queries.map((query) => ({ connection: 'demo', notes: '', request: search(query.name.toLowerCase()), ...query })),
    ...extra,
  }
}

const textOf = (queries: { name: string; connection?: string; notes?: string }[], connections = [OLD_DEMO], extra: Record<string, unknown> = {}) =>
  serializeWorkspace(workspaceOf(queries, connections, extra))

/** Answers the native dialogs with the paths the test queues; records what each was asked. */
function scriptedDialogs() {
  const opens: (string | null)[] = []
  const saves: (string | null)[] = []
  const asked: { kind: 'open' | 'save'; options: unknown }[] = []
  const dialogs: FileDialogs = {
    chooseOpen: async (options) => {
      asked.push({ kind: 'open', options })
      return opens.shift() ?? null
    },
    chooseSave: async (options) => {
      asked.push({ kind: 'save', options })
      return saves.shift() ?? null
    },
  }
  return { dialogs, opens, saves, asked }
}

const sessionBytes = (dataDir: string) => readFileSync(join(dataDir, SESSION_FILE))

describe('workspace session', () => {
  let service: RunningService
  const dirs: string[] = []
  const cores: AppCore[] = []

  const tempDir = (label: string) => {
    const dir = mkdtempSync(join(tmpdir(), `qe-ws-${label}-`))
    dirs.push(dir)
    return dir
  }
  const browserCore = async (dataDir = tempDir('data')) => {
    const core = await openCore(dataDir, { demo: service, echoLog: false })
    cores.push(core)
    return core
  }
  const electronCore = async (dialogs: FileDialogs, dataDir = tempDir('data')) => {
    const core = await openCore(dataDir, { demo: service, echoLog: false, host: 'electron', dialogs })
    cores.push(core)
    return core
  }
  const close = async (core: AppCore) => {
    cores.splice(cores.indexOf(core), 1)
    await core.close()
  }
  const current = (core: AppCore) => call<Current>(core, 'workspace:current', {})
  const importText = (core: AppCore, fileName: string, text: string) => call<WorkspaceView>(core, 'workspace:import', { fileName, text })
  const saveQuery = (core: AppCore, request: Record<string, unknown>) =>
    call<WorkspaceView>(core, 'workspace:save-query', { connectionId: 'demo', request: search(String(request.name).toLowerCase()), ...request })

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
  })
  afterAll(async () => {
    for (const core of cores) await core.close()
    await service?.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  describe('Electron: files the user picks in the native dialogs', () => {
    it('saves a new workspace where the user chooses, reopens it, and a save without edits writes identical bytes', async () => {
      const { dialogs, opens, saves, asked } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const folder = tempDir('files')

      const fresh = await current(core)
      expect(fresh.workspace).toMatchObject({ name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'choose', dirty: false, queries: [], bindings: [] })

      const saved = await saveQuery(core, { name: 'Paris', notes: 'the capital' })
      expect(saved.dirty).toBe(true)
      expect(saved.queries).toEqual([{ name: 'Paris', connection: 'demo', notes: 'the capital', request: search('paris') }])
      expect(saved.bindings).toEqual([
        {
          fileConnectionId: 'demo',
          connectionId: 'demo',
          how: 'same',
          connection: { id: 'demo', name: 'Demo', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: 'world', api: 'places', config: 'default', clientId: 'demo' },
        },
      ])

      // The user types "team" in the save dialog: the file gets the workspace extension.
      saves.push(join(folder, 'team'))
      const first = await call<SaveReply>(core, 'workspace:save', {})
      const path = join(folder, 'team.qxw.json')
      expect(asked.at(-1)).toEqual({
        kind: 'save',
        options: {
          title: 'Save workspace',
          defaultName: 'Untitled workspace.qxw.json',
          filters: [
            { name: 'Query Explorer workspace', extensions: ['qxw.json'] },
            { name: 'JSON', extensions: ['json'] },
          ],
        },
      })
      expect(first).toMatchObject({ download: null, workspace: { name: 'team', fileName: 'team.qxw.json', folder, saveTarget: 'file', dirty: false } })
      const bytes = readFileSync(path)
      const read = parseWorkspace(bytes.toString('utf8'), 'team.qxw.json')
      expect(read.ok && read.workspace.queries.map((query) => query.name)).toEqual(['Paris'])
      expect(serializeWorkspace((read as { workspace: Workspace }).workspace)).toBe(bytes.toString('utf8'))

      expect(await call<WorkspaceView>(core, 'workspace:new', {})).toMatchObject({ name: 'Untitled workspace', queries: [], dirty: false })
      opens.push(path)
      const opened = await call<WorkspaceView>(core, 'workspace:open', {})
      expect(asked.at(-1)?.kind).toBe('open')
      expect(opened).toEqual({ ...first.workspace, dirty: false })

      // The path is known: a save writes it without asking.
      const dialogsAsked = asked.length
      const again = await call<SaveReply>(core, 'workspace:save', {})
      expect(asked).toHaveLength(dialogsAsked)
      expect(again.workspace?.dirty).toBe(false)
      expect(readFileSync(path).equals(bytes)).toBe(true)
      expect(readdirSync(folder)).toEqual(['team.qxw.json'])

      // Cancelled dialogs: nothing opens, nothing is written.
      expect(await call(core, 'workspace:open', {})).toBeNull()
      expect(await call(core, 'workspace:save', { saveAs: true })).toEqual({ workspace: null, download: null })
      expect((await current(core)).workspace).toEqual(opened)
    })

    it('keeps its test cases (renamed with their query) and a top-level key it does not know through open, edit and save', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const path = join(tempDir('files'), 'later.qxw.json')
      const tests = [{ name: 'Rome first', query: 'Rome', expect: { firstItem: [{ field: 'id', equals: 'rome-it' }] } }]
      writeFileSync(path, textOf([{ name: 'Paris' }, { name: 'Rome' }], [OLD_DEMO], { tests, zeta: 'last' }))
      opens.push(path)
      await call(core, 'workspace:open', {})
      await call(core, 'workspace:rename-query', { name: 'Rome', newName: 'Roma' })
      await saveQuery(core, { name: 'Oslo' })
      expect((await call<SaveReply>(core, 'workspace:save', {})).workspace?.dirty).toBe(false)
      const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      // The case follows its saved query's new name.
      expect(written.tests).toEqual([{ ...tests[0], query: 'Roma' }])
      expect(written.zeta).toBe('last')
      expect((written.queries as { name: string }[]).map((query) => query.name)).toEqual(['Paris', 'Roma', 'Oslo'])
      expect(Object.keys(written)).toEqual(['format', 'version', 'connections', 'queries', 'tests', 'zeta'])
    })

    it('refuses a bad file by its name and leaves the open workspace and session.json as they were', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const dataDir = tempDir('data')
      const core = await electronCore(dialogs, dataDir)
      await saveQuery(core, { name: 'Unsaved work' })
      const before = await current(core)
      const session = sessionBytes(dataDir)
      const folder = tempDir('files')
      const bad: [string, string, RegExp][] = [
        ['notes.qxw.json', '{"format": "query-explorer-workspace", "version": 1,', /^"notes\.qxw\.json" is not valid JSON/],
        ['future.qxw.json', JSON.stringify({ format: 'query-explorer-workspace', version: 2, connections: [], queries: [] }), /^"future\.qxw\.json" was written by a newer Query Explorer/],
        [
          'leaky.qxw.json',
          JSON.stringify({ format: 'query-explorer-workspace', version: 1, connections: [{ ...OLD_DEMO, clientSecret: 'canary' }], queries: [] }),
          /^"leaky\.qxw\.json" holds a field that looks like a secret or a token \(connections\[0\]\.clientSecret\)/,
        ],
      ]
      for (const [name, text, message] of bad) {
        writeFileSync(join(folder, name), text)
        opens.push(join(folder, name))
        const refused = await failure(core, 'workspace:open', {})
        expect(refused.code).toBe('validation')
        expect(refused.message).toMatch(message)
        expect(await current(core)).toEqual(before)
        expect(sessionBytes(dataDir).equals(session)).toBe(true)
      }
      expect(await call<RecentWorkspace[]>(core, 'workspace:recent', {})).toEqual([])
    })

    it('says which file could not be written and keeps the document dirty', async () => {
      const { dialogs, saves } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const folder = tempDir('files')
      await saveQuery(core, { name: 'Paris' })
      // The user picks a name a folder already has.
      mkdirSync(join(folder, 'taken.qxw.json'))
      saves.push(join(folder, 'taken.qxw.json'))
      const refused = await failure(core, 'workspace:save', {})
      expect(refused.message).toMatch(/^"taken\.qxw\.json" could not be saved: a folder has that name\./)
      // A folder that does not exist (a file stands where it should be).
      writeFileSync(join(folder, 'plain'), 'x')
      saves.push(join(folder, 'plain', 'team.qxw.json'))
      expect((await failure(core, 'workspace:save', {})).message).toMatch(/^"team\.qxw\.json" could not be saved: the folder .*plain does not exist/)
      // Adding the extension would name another file the dialog never asked about replacing.
      writeFileSync(join(folder, 'other.qxw.json'), 'someone else’s file')
      saves.push(join(folder, 'other'))
      expect((await failure(core, 'workspace:save', {})).message).toMatch(/^"other\.qxw\.json" already exists in /)
      expect(readFileSync(join(folder, 'other.qxw.json'), 'utf8')).toBe('someone else’s file')
      expect((await current(core)).workspace).toMatchObject({ dirty: true, saveTarget: 'choose', fileName: null })
    })

    it('lists recent files with their folder, reopens one by id, and drops one whose file is gone', async () => {
      const { dialogs, opens, saves } = scriptedDialogs()
      const dataDir = tempDir('data')
      const core = await electronCore(dialogs, dataDir)
      const folder = tempDir('files')
      for (const name of ['a', 'b', 'c']) {
        writeFileSync(join(folder, `${name}.qxw.json`), textOf([{ name: name.toUpperCase() }]))
        opens.push(join(folder, `${name}.qxw.json`))
        await call(core, 'workspace:open', {})
      }
      await saveQuery(core, { name: 'Extra' })
      saves.push(join(folder, 'd.qxw.json'))
      await call(core, 'workspace:save', { saveAs: true })
      const recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => [entry.name, entry.fileName, entry.folder, entry.kind])).toEqual([
        ['d', 'd.qxw.json', folder, 'file'],
        ['c', 'c.qxw.json', folder, 'file'],
        ['b', 'b.qxw.json', folder, 'file'],
        ['a', 'a.qxw.json', folder, 'file'],
      ])
      expect(JSON.stringify(recent)).not.toContain(join(folder, 'a.qxw.json'))

      const reopened = await call<WorkspaceView>(core, 'workspace:open', { recentId: recent[2]!.id })
      expect(reopened).toMatchObject({ name: 'b', folder, saveTarget: 'file', dirty: false, queries: [{ name: 'B' }] })
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).toEqual(['b', 'd', 'c', 'a'])

      unlinkSync(join(folder, 'a.qxw.json'))
      const gone = await failure(core, 'workspace:open', { recentId: recent[3]!.id })
      expect(gone.code).toBe('not_found')
      expect(gone.message).toContain('"a.qxw.json" is no longer in')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).toEqual(['b', 'd', 'c'])
      expect((await current(core)).workspace.name).toBe('b')
      expect((await failure(core, 'workspace:open', { recentId: 'no-such-entry' })).code).toBe('not_found')
    })

    it('restarts on the same file, with its path, unsaved edits and dirty flag', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const dataDir = tempDir('data')
      const folder = tempDir('files')
      const path = join(folder, 'team.qxw.json')
      writeFileSync(path, textOf([{ name: 'Paris' }]))
      const core = await electronCore(dialogs, dataDir)
      opens.push(path)
      await call(core, 'workspace:open', {})
      await saveQuery(core, { name: 'Oslo' })
      const before = await current(core)
      await close(core)

      const again = await electronCore(scriptedDialogs().dialogs, dataDir)
      expect(await current(again)).toEqual(before)
      expect(before.workspace).toMatchObject({ fileName: 'team.qxw.json', folder, saveTarget: 'file', dirty: true })
      await call(again, 'workspace:save', {})
      expect(parseWorkspace(readFileSync(path, 'utf8'), 'x')).toMatchObject({ ok: true, workspace: { queries: [{ name: 'Paris' }, { name: 'Oslo' }] } })
    })
  })

  describe('browser host: the page picks files and takes downloads', () => {
    it('imports a file, binds the demo moved to this launch’s port, and offers the save as a download', async () => {
      const core = await browserCore()
      const example = readFileSync(join(__dirname, '../../examples/big-spanish-cities.qxw.json'), 'utf8')
      const view = await importText(core, 'big-spanish-cities.qxw.json', example)
      expect(view).toMatchObject({ name: 'big-spanish-cities', fileName: 'big-spanish-cities.qxw.json', folder: null, saveTarget: 'download', dirty: false })
      expect(view.bindings).toEqual([{ fileConnectionId: 'demo', connection: OLD_DEMO, connectionId: 'demo', how: 'moved' }])

      await call(core, 'workspace:rename-query', { name: 'Big Spanish cities', newName: 'Grandes ciudades' })
      const saved = await call<SaveReply>(core, 'workspace:save', {})
      expect(saved.workspace).toMatchObject({ dirty: false, fileName: 'big-spanish-cities.qxw.json' })
      expect(saved.download?.fileName).toBe('big-spanish-cities.qxw.json')
      const read = parseWorkspace(saved.download!.text, 'x')
      expect(read.ok && read.workspace.queries[0]!.name).toBe('Grandes ciudades')
      // The file keeps the URLs it had: the binding is this app's business, not the file's.
      expect(read.ok && read.workspace.connections).toEqual([OLD_DEMO])
      expect(saved.download!.text.replace('Grandes ciudades', 'Big Spanish cities')).toBe(example)

      const refused = await failure(core, 'workspace:open', {})
      expect(refused).toMatchObject({ code: 'validation' })
      expect(refused.message).toMatch(/Open workspace…/)
    })

    it('saves a workspace never saved under the name the user gave, refusing one that would be a path; later saves keep it', async () => {
      const core = await browserCore()
      await saveQuery(core, { name: 'Paris' })
      for (const [name, rule] of [['team/queries', 'a name cannot hold / or \\'], ['  ', 'give the workspace a name'], ['..', 'a name needs more than dots'], ['a\u0007b', 'a name cannot hold control characters']]) {
        const refused = await failure(core, 'workspace:save', { name })
        expect(refused).toMatchObject({ code: 'validation', message: `Workspace name: ${rule}.` })
      }
      expect((await current(core)).workspace).toMatchObject({ name: 'Untitled workspace', fileName: null, dirty: true })

      const named = await call<SaveReply>(core, 'workspace:save', { name: ' Team queries ' })
      expect(named.download?.fileName).toBe('Team queries.qxw.json')
      expect(named.workspace).toMatchObject({ name: 'Team queries', fileName: 'Team queries.qxw.json', dirty: false })
      expect(parseWorkspace(named.download!.text, 'Team queries.qxw.json').ok).toBe(true)
      const again = await call<SaveReply>(core, 'workspace:save', {})
      expect(again.download?.fileName).toBe('Team queries.qxw.json')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {}))[0]).toMatchObject({ fileName: 'Team queries.qxw.json' })
    })

    it('prefers the demo when other connections also match with another port', async () => {
      const core = await browserCore()
      const copy = await call<ConnectionView>(core, 'connections:duplicate', { connectionId: 'demo' })
      const view = await importText(core, 'team.qxw.json', textOf([{ name: 'Paris' }]))
      expect(view.bindings[0]).toMatchObject({ connectionId: 'demo', how: 'moved' })
      // A file that names this launch's URLs exactly: the same, and still the demo first.
      const exact = { ...OLD_DEMO, authUrl: service.authUrl, queryUrl: service.queryUrl }
      const same = await importText(core, 'exact.qxw.json', textOf([{ name: 'Paris' }], [exact]))
      expect(same.bindings[0]).toMatchObject({ connectionId: 'demo', how: 'same' })
      expect(copy.id).not.toBe('demo')
    })

    it('refuses a bad import by its name and changes nothing', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await importText(core, 'good.qxw.json', textOf([{ name: 'Paris' }]))
      await saveQuery(core, { name: 'Unsaved' })
      const before = await current(core)
      const session = sessionBytes(dataDir)
      const recentBefore = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      for (const [name, text, message] of [
        ['a.qxw.json', 'not json', /^"a\.qxw\.json" is not valid JSON/],
        ['b.qxw.json', '{"format": "query-explorer-workspace", "version": 7}', /^"b\.qxw\.json" was written by a newer Query Explorer \(workspace format version 7\)/],
        ['c.qxw.json', JSON.stringify({ format: 'query-explorer-workspace', version: 1, apiKey: 'k' }), /^"c\.qxw\.json" holds a field that looks like a secret/],
        ['d.qxw.json', '{"format": "query-explorer-workspace", "version": 1, "queries": [{"name": "x"}]}', /^"d\.qxw\.json" is not a valid workspace: /],
      ] as const) {
        const refused = await failure(core, 'workspace:import', { fileName: name, text })
        expect(refused.code).toBe('validation')
        expect(refused.message).toMatch(message)
      }
      expect(await current(core)).toEqual(before)
      expect(sessionBytes(dataDir).equals(session)).toBe(true)
      expect(await call(core, 'workspace:recent', {})).toEqual(recentBefore)
    })

    it('keeps the last 10 imported or downloaded files as copies, newest first, once each, deleting those that fall off', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const copies = () => readdirSync(join(dataDir, RECENT_COPIES_DIR)).sort()
      for (let n = 0; n < 12; n++) await importText(core, `w${n}.qxw.json`, textOf([{ name: `Q${n}` }]))
      let recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w5', 'w4', 'w3', 'w2'])
      expect(recent.every((entry) => entry.kind === 'copy' && entry.folder === null)).toBe(true)
      expect(copies()).toEqual(recent.map((entry) => `${entry.id}.qxw.json`).sort())

      // The same file again: listed once, first, with its newer text.
      await importText(core, 'w5.qxw.json', textOf([{ name: 'Q5 changed' }]))
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3', 'w2'])
      expect(copies()).toHaveLength(10)

      // A download is kept too, under its file name; w2 falls off and its copy goes.
      await saveQuery(core, { name: 'Oslo' })
      await call(core, 'workspace:save', {})
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3', 'w2'])
      await call(core, 'workspace:new', {})
      await saveQuery(core, { name: 'Lima' })
      const download = await call<SaveReply>(core, 'workspace:save', {})
      expect(download.download?.fileName).toBe('Untitled workspace.qxw.json')
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['Untitled workspace', 'w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3'])
      expect(copies()).toEqual(recent.map((entry) => `${entry.id}.qxw.json`).sort())

      // Reopening a copy names the file it was, and holds its last text.
      const w5 = recent[1]!
      const reopened = await call<WorkspaceView>(core, 'workspace:open', { recentId: w5.id })
      expect(reopened).toMatchObject({ name: 'w5', fileName: 'w5.qxw.json', dirty: false, queries: [{ name: 'Q5 changed' }, { name: 'Oslo' }] })
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {}))[0]!.id).toBe(w5.id)

      // A copy that went missing: said by name, and the entry goes.
      const w3 = recent.find((entry) => entry.name === 'w3')!
      unlinkSync(join(dataDir, RECENT_COPIES_DIR, `${w3.id}.qxw.json`))
      const gone = await failure(core, 'workspace:open', { recentId: w3.id })
      expect(gone).toMatchObject({ code: 'not_found' })
      expect(gone.message).toContain('"w3.qxw.json"')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).not.toContain('w3')

      // The list survives a restart; a corrupt one counts as empty, and its stray copies go.
      await close(core)
      const again = await browserCore(dataDir)
      expect((await call<RecentWorkspace[]>(again, 'workspace:recent', {})).map((entry) => entry.name)).toHaveLength(9)
      await close(again)
      writeFileSync(join(dataDir, RECENT_FILE), '{"version": 1, "files": [], "copies": [{"id": "../../etc/passwd"}]}')
      const third = await browserCore(dataDir)
      expect(await call(third, 'workspace:recent', {})).toEqual([])
      expect(copies()).toEqual([])
    })
  })

  describe('the session survives a restart', () => {
    it('gives back the workspace, its dirty flag, bindings and the draft', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const staging = await call<ConnectionView>(core, 'connections:save', {
        name: 'Mine',
        authUrl: 'http://127.0.0.1:9/auth',
        queryUrl: 'http://127.0.0.1:9/query',
        workspace: 'films',
        api: 'movies',
        clientId: 'mine',
      })
      await importText(core, 'team.qxw.json', textOf([{ name: 'Paris' }, { name: 'Staged', connection: 'staging' }], [OLD_DEMO, STAGING], { later: [1, 2] }))
      expect((await current(core)).workspace.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([
        ['demo', 'demo', 'moved'],
        ['staging', null, null],
      ])
      await call(core, 'workspace:bind', { fileConnectionId: 'staging', connectionId: staging.id })
      await saveQuery(core, { name: 'Oslo', notes: 'unsaved' })
      const draft: Draft = { connectionId: 'demo', request: search('lima', { count: 25 }), savedQuery: 'Oslo' }
      expect(await call(core, 'workspace:draft', { draft })).toEqual({ kept: true })
      const before = await current(core)
      expect(before.workspace.dirty).toBe(true)
      expect(before.workspace.bindings.map((binding) => binding.how)).toEqual(['moved', 'chosen'])
      await close(core)

      const again = await browserCore(dataDir)
      expect(await current(again)).toEqual(before)
      expect(await current(again)).toEqual({ workspace: before.workspace, draft })
      const download = await call<SaveReply>(again, 'workspace:save', {})
      expect(JSON.parse(download.download!.text).later).toEqual([1, 2])
      await close(again)

      const third = await browserCore(dataDir)
      expect((await current(third)).workspace.dirty).toBe(false)
      // A new workspace starts clean, and the draft stays but no longer stems from a saved query.
      expect(await call(third, 'workspace:new', {})).toMatchObject({ dirty: false, queries: [], fileName: null })
      expect((await current(third)).draft).toEqual({ ...draft, savedQuery: null })
    })

    it('sets a corrupt session aside, starts empty and says so', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await saveQuery(core, { name: 'Paris' })
      await close(core)
      writeFileSync(join(dataDir, SESSION_FILE), '{"version": 1, "document": "{}"')
      const again = await browserCore(dataDir)
      expect((await current(again)).workspace).toMatchObject({ name: 'Untitled workspace', queries: [], dirty: false })
      const info = await call<AppInfo>(again, 'app:info', {})
      expect(info.notices).toHaveLength(1)
      expect(info.notices[0]).toMatch(/could not be restored \(it is not valid JSON\); its session file was kept as .*session\.json\.bad\. Starting with an empty workspace\./)
      expect(readFileSync(join(dataDir, `${SESSION_FILE}.bad`), 'utf8')).toBe('{"version": 1, "document": "{}"')
      await close(again)

      // A session whose document holds a secret-looking field is not taken either.
      const sneaky = { version: 1, document: JSON.stringify({ format: 'query-explorer-workspace', version: 1, token: 'x' }), file: null, savedDigest: '0'.repeat(64), bindings: [], draft: null }
      writeFileSync(join(dataDir, SESSION_FILE), JSON.stringify(sneaky))
      const third = await browserCore(dataDir)
      expect((await call<AppInfo>(third, 'app:info', {})).notices[0]).toMatch(/looks like a secret/)
      expect((await current(third)).workspace.queries).toEqual([])
    })

    it('lands 20 concurrent saves of queries, and session.json reads afterwards', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const names = Array.from({ length: 20 }, (_, n) => `Query ${n}`)
      await Promise.all([
        ...names.map((name) => saveQuery(core, { name, request: search(name) })),
        ...names.map((name) => call(core, 'workspace:draft', { draft: { connectionId: 'demo', request: search(name), savedQuery: null } })),
      ])
      const view = (await current(core)).workspace
      expect(view.queries.map((query) => query.name).sort()).toEqual([...names].sort())
      const session = JSON.parse(readFileSync(join(dataDir, SESSION_FILE), 'utf8')) as { document: string }
      const read = parseWorkspace(session.document, 'session')
      expect(read.ok && read.workspace.queries.map((query) => query.name)).toEqual(view.queries.map((query) => query.name))
      expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
      await close(core)
      expect((await current(await browserCore(dataDir))).workspace.queries).toEqual(view.queries)
    })
  })

  describe('saved queries', () => {
    let core: AppCore
    const names = async () => (await current(core)).workspace.queries.map((query) => query.name)

    beforeAll(async () => {
      core = await browserCore()
    })
    afterEach(async () => {
      await call(core, 'workspace:new', {})
    })

    it('adds, updates (keeping notes), renames on save, and refuses a name taken by another unless replacing', async () => {
      await saveQuery(core, { name: 'Paris', notes: 'keep me' })
      await saveQuery(core, { name: 'Rome' })
      await saveQuery(core, { name: 'Paris', previousName: 'Paris', request: search('paris', { count: 50 }) })
      let view = (await current(core)).workspace
      expect(view.queries[0]).toEqual({ name: 'Paris', connection: 'demo', notes: 'keep me', request: search('paris', { count: 50 }) })

      const clash = await failure(core, 'workspace:save-query', { name: 'Rome', connectionId: 'demo', request: search('x') })
      expect(clash).toMatchObject({ code: 'validation' })
      expect(clash.message).toMatch(/^A saved query named "Rome" exists/)
      const clashOnRename = await failure(core, 'workspace:save-query', { name: 'Rome', previousName: 'Paris', connectionId: 'demo', request: search('x') })
      expect(clashOnRename.message).toMatch(/^A saved query named "Rome" exists/)
      expect(await names()).toEqual(['Paris', 'Rome'])

      await saveQuery(core, { name: ' Paris by night ', previousName: 'Paris', notes: 'renamed' })
      expect(await names()).toEqual(['Paris by night', 'Rome'])
      await saveQuery(core, { name: 'Rome', previousName: 'Paris by night', replace: true })
      view = (await current(core)).workspace
      expect(view.queries).toEqual([{ name: 'Rome', connection: 'demo', notes: 'renamed', request: search('rome') }])
      await saveQuery(core, { name: 'Rome', replace: true, request: search('roma') })
      expect((await current(core)).workspace.queries).toEqual([{ name: 'Rome', connection: 'demo', notes: 'renamed', request: search('roma') }])
      expect((await failure(core, 'workspace:save-query', { name: '   ', connectionId: 'demo', request: search('x') })).message).toMatch(/Name: give the query a name/)
      expect((await failure(core, 'workspace:save-query', { name: 'X', connectionId: 'nope', request: search('x') })).code).toBe('not_found')
    })

    it('a test added from the saved query the editor started from runs that query and is named after it; edited, it runs its own', async () => {
      type Added = { workspace: WorkspaceView; name: string }
      // The file leaves config at its default unwritten; the editor always writes it, as the official clients send it.
      await saveQuery(core, { name: 'Oslo in Norway', request: search('oslo') })
      const editor = { ...search('oslo'), options: { config: 'default', count: 25 } }
      const added = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: editor, savedQuery: 'Oslo in Norway' })
      expect(added.name).toBe('Oslo in Norway')
      expect(added.workspace.tests.at(-1)).toMatchObject({ name: 'Oslo in Norway', query: 'Oslo in Norway' })
      expect(added.workspace.tests.at(-1)!.request).toBeUndefined()

      const again = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: editor, savedQuery: 'Oslo in Norway' })
      expect(again.name).toBe('Oslo in Norway (2)')

      const edited = { ...editor, options: { config: 'production', count: 10 } }
      const own = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: edited, savedQuery: 'Oslo in Norway' })
      expect(own.name).toBe('oslo')
      expect(own.workspace.tests.at(-1)).toMatchObject({ name: 'oslo', connection: 'demo', request: edited })
    })

    it('renames, duplicates and deletes, keeping the order, and names what it cannot find', async () => {
      for (const name of ['A', 'B', 'C']) await saveQuery(core, { name })
      await call(core, 'workspace:rename-query', { name: 'B', newName: 'Bee' })
      expect(await names()).toEqual(['A', 'Bee', 'C'])
      expect((await failure(core, 'workspace:rename-query', { name: 'A', newName: 'C' })).message).toMatch(/^A saved query named "C" exists/)
      expect(await failure(core, 'workspace:rename-query', { name: 'Z', newName: 'Y' })).toMatchObject({ code: 'not_found', message: expect.stringContaining('"Z"') })
      expect((await call<{ name: string }>(core, 'workspace:duplicate-query', { name: 'A' })).name).toBe('A (copy)')
      expect((await call<{ name: string }>(core, 'workspace:duplicate-query', { name: 'A' })).name).toBe('A (copy 2)')
      expect(await names()).toEqual(['A', 'Bee', 'C', 'A (copy)', 'A (copy 2)'])
      await call(core, 'workspace:delete-query', { name: 'Bee' })
      expect(await names()).toEqual(['A', 'C', 'A (copy)', 'A (copy 2)'])
      expect((await failure(core, 'workspace:delete-query', { name: 'Bee' })).code).toBe('not_found')
      expect((await failure(core, 'workspace:duplicate-query', { name: 'Bee' })).code).toBe('not_found')
    })

    it('the draft follows a rename or delete of the saved query it started from', async () => {
      await saveQuery(core, { name: 'A' })
      await call(core, 'workspace:draft', { draft: { connectionId: 'demo', request: search('a'), savedQuery: 'A' } })
      await call(core, 'workspace:rename-query', { name: 'A', newName: 'Alpha' })
      expect((await current(core)).draft?.savedQuery).toBe('Alpha')
      await call(core, 'workspace:delete-query', { name: 'Alpha' })
      expect((await current(core)).draft?.savedQuery).toBeNull()
    })

    it('describes the app connection in the file on first use, without its deadline, under a unique id', async () => {
      const slow = await call<ConnectionView>(core, 'connections:save', {
        name: 'Demo',
        authUrl: service.authUrl.replace('127.0.0.1', 'localhost'),
        queryUrl: service.queryUrl.replace('127.0.0.1', 'localhost'),
        workspace: 'world',
        api: 'places',
        clientId: 'other',
        deadlineSeconds: 30,
        tokenRequest: 'oauth',
      })
      await saveQuery(core, { name: 'On demo' })
      const view = await saveQuery(core, { name: 'On slow', connectionId: slow.id })
      expect(view.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([
        ['demo', 'demo', 'same'],
        ['demo-2', slow.id, 'same'],
      ])
      expect(view.bindings[1]!.connection).toEqual({
        id: 'demo-2',
        name: 'Demo',
        authUrl: slow.authUrl,
        queryUrl: slow.queryUrl,
        workspace: 'world',
        api: 'places',
        clientId: 'other',
        tokenRequest: 'oauth',
      })
      expect(view.queries.map((query) => query.connection)).toEqual(['demo', 'demo-2'])
      await saveQuery(core, { name: 'Again on slow', connectionId: slow.id })
      expect((await current(core)).workspace.bindings).toHaveLength(2)
      expect((await failure(core, 'workspace:bind', { fileConnectionId: 'nope', connectionId: 'demo' })).message).toBe('The workspace has no connection "nope".')
      expect((await failure(core, 'workspace:bind', { fileConnectionId: 'demo', connectionId: 'nope' })).code).toBe('not_found')
      await call(core, 'connections:delete', { id: slow.id })
      expect((await current(core)).workspace.bindings[1]).toMatchObject({ connectionId: null, how: null })
    })

    it('keeps the dirty flag true to the document: back to what was opened is clean again', async () => {
      const view = await importText(core, 'team.qxw.json', textOf([{ name: 'Paris' }]))
      expect(view.dirty).toBe(false)
      expect((await saveQuery(core, { name: 'Oslo' })).dirty).toBe(true)
      expect((await call<WorkspaceView>(core, 'workspace:delete-query', { name: 'Oslo' })).dirty).toBe(false)
      expect((await call<WorkspaceView>(core, 'workspace:rename-query', { name: 'Paris', newName: 'P' })).dirty).toBe(true)
      expect((await call<SaveReply>(core, 'workspace:save', {})).workspace?.dirty).toBe(false)
      // A binding is the app's, not the file's: it does not make the document dirty.
      expect((await call<WorkspaceView>(core, 'workspace:bind', { fileConnectionId: 'demo', connectionId: 'demo' })).dirty).toBe(false)
      expect((await call<WorkspaceView>(core, 'workspace:new', {})).dirty).toBe(false)
    })
  })

  describe('facets declared by hand', () => {
    const GENRE = { options: 'genre', selection: 'single', resetOnSearchChange: true }
    const DIRECTOR = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }
    const setFacets = (core: AppCore, facets: unknown[]) => call<WorkspaceView>(core, 'workspace:set-facets', { connectionId: 'demo', facets })

    it('keeps them on the connection in use, unsaved until saved; a restart gives them back and a colleague opening the file gets them', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      // No query saved yet: the connection in use is described in the file, as saving a query does.
      const declared = await setFacets(core, [GENRE, DIRECTOR])
      expect(declared.dirty).toBe(true)
      expect(declared.bindings).toEqual([
        {
          fileConnectionId: 'demo',
          connectionId: 'demo',
          how: 'same',
          connection: { id: 'demo', name: 'Demo', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: 'world', api: 'places', config: 'default', clientId: 'demo', facets: [GENRE, DIRECTOR] },
        },
      ])
      await close(core)

      const again = await browserCore(dataDir)
      expect((await current(again)).workspace).toEqual(declared)
      const saved = await call<SaveReply>(again, 'workspace:save', {})
      expect(saved.workspace?.dirty).toBe(false)
      const text = saved.download!.text
      const written = JSON.parse(text) as { connections: Record<string, unknown>[] }
      // The file says the declarations in a fixed key order, as the client's addFacet takes them.
      expect(written.connections[0]!.facets).toEqual([GENRE, DIRECTOR])
      expect(Object.keys((written.connections[0]!.facets as object[])[1]!)).toEqual(['options', 'filter', 'parameter', 'selection', 'resetOnSearchChange'])
      expect(Object.keys(written.connections[0]!).at(-1)).toBe('facets')

      // A colleague's app opens the file: the facets come with its connection.
      const colleague = await browserCore()
      const opened = await importText(colleague, 'team.qxw.json', text)
      expect(opened.bindings[0]).toMatchObject({ connectionId: 'demo', connection: { facets: [GENRE, DIRECTOR] } })
      expect(opened.dirty).toBe(false)
      // Saved again unchanged, the bytes are the same.
      expect((await call<SaveReply>(colleague, 'workspace:save', {})).download!.text).toBe(text)

      // Editing (here: removing one) is an edit like any other; removing all leaves no key behind.
      expect((await setFacets(colleague, [DIRECTOR])).dirty).toBe(true)
      const none = await setFacets(colleague, [])
      expect(none.bindings[0]!.connection).not.toHaveProperty('facets')
      expect(JSON.parse((await call<SaveReply>(colleague, 'workspace:save', {})).download!.text).connections[0]).not.toHaveProperty('facets')
    })

    it('refuses a declaration that breaks a rule, naming the facet, the field and the rule, and changes nothing', async () => {
      const core = await browserCore()
      await setFacets(core, [GENRE])
      const before = await current(core)
      const twice = await failure(core, 'workspace:set-facets', { connectionId: 'demo', facets: [GENRE, { ...GENRE, selection: 'multiple' }] })
      expect(twice).toMatchObject({ code: 'validation', message: 'Facet "genre", Options endpoint: the facet "genre" is declared already.' })
      const dots = await failure(core, 'workspace:set-facets', { connectionId: 'demo', facets: [{ options: 'genre', filter: '..' }] })
      expect(dots.message).toBe('Facet "genre", Filter endpoint: ".." cannot be sent: URL normalisation removes "." and ".." path segments.')
      const tooMany = Array.from({ length: 101 }, (_, n) => ({ options: `f${n}` }))
      expect((await failure(core, 'workspace:set-facets', { connectionId: 'demo', facets: tooMany })).code).toBe('validation')
      expect(await current(core)).toEqual(before)
    })

    it('refuses a hostile file (too many declarations, bad names) with a sentence naming the field, keeping the open workspace', async () => {
      const core = await browserCore()
      await saveQuery(core, { name: 'Paris' })
      const before = await current(core)
      const withFacets = (facets: unknown[]) => JSON.stringify({ ...JSON.parse(textOf([{ name: 'Paris' }])), connections: [{ ...OLD_DEMO, facets }] })

      const many = await failure(core, 'workspace:import', { fileName: 'many.qxw.json', text: withFacets(Array.from({ length: 101 }, (_, n) => ({ options: `f${n}` }))) })
      expect(many).toMatchObject({ code: 'validation' })
      expect(many.message).toBe('"many.qxw.json" is not a valid workspace: connections[0].facets: Too big: expected array to have <=100 items.')

      const control = await failure(core, 'workspace:import', { fileName: 'bad.qxw.json', text: withFacets([{ options: 'genre\u0007' }]) })
      expect(control.message).toBe('"bad.qxw.json" is not a valid workspace: connections[0].facets[0].options: holds a control character, which no endpoint or parameter name has.')
      const twice = await failure(core, 'workspace:import', { fileName: 'twice.qxw.json', text: withFacets([{ options: 'genre' }, { options: 'kind', filter: 'genre:FILTER' }]) })
      expect(twice.message).toBe('"twice.qxw.json" is not a valid workspace: connections[0].facets[1].filter: "genre:FILTER" is the filter of another declared facet already.')
      const typed = await failure(core, 'workspace:import', { fileName: 'typed.qxw.json', text: withFacets([{ options: 'genre', selection: 'some' }]) })
      expect(typed.message).toMatch(/^"typed\.qxw\.json" is not a valid workspace: connections\[0\]\.facets\[0\]\.selection: /)

      expect(await current(core)).toEqual(before)
      // A valid one opens, the facet with the client's defaults spelt out.
      const good = await importText(core, 'good.qxw.json', withFacets([{ options: 'genre' }]))
      expect(good.bindings[0]!.connection.facets).toEqual([GENRE])
    })
  })

  describe('sizes', () => {
    let core: AppCore
    let dataDir: string
    beforeAll(async () => {
      dataDir = tempDir('data')
      core = await browserCore(dataDir)
    })

    /** A valid workspace of about `bytes`, in queries with long notes. */
    const bigWorkspace = (bytes: number, char = 'n') => {
      const per = 90_000
      const queries = Array.from({ length: Math.ceil(bytes / (per * Buffer.byteLength(char))) }, (_, n) => ({ name: `Q${n}`, notes: char.repeat(per) }))
      return textOf(queries)
    }

    it('imports a 4 MiB file over the dispatcher and over the browser host, and refuses 6 MiB in words', async () => {
      const text = bigWorkspace(4 * 1024 * 1024)
      expect(text.length).toBeGreaterThan(4 * 1024 * 1024)
      const view = await importText(core, 'big.qxw.json', text)
      expect(view.queries.length).toBe(47)

      const tooBig = 'x'.repeat(6 * 1024 * 1024)
      const refused = await failure(core, 'workspace:import', { fileName: 'huge.qxw.json', text: tooBig })
      expect(refused).toMatchObject({ code: 'validation', message: '"huge.qxw.json" is too large to be a workspace file (6.0 MiB of text; the most is 5.0 MiB).' })
      // Under the limit in characters, over 5 MiB in bytes (two bytes each): a file may hold that (32 MiB), so it opens as a file would.
      const wide = bigWorkspace(5.5 * 1024 * 1024, 'é')
      expect(wide.length).toBeLessThan(5 * 1024 * 1024)
      expect((await importText(core, 'wide.qxw.json', wide)).queries.length).toBe(JSON.parse(wide).queries.length)
      await importText(core, 'big.qxw.json', text)
      expect((await current(core)).workspace.queries.length).toBe(47)

      const rendererDir = tempDir('renderer')
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
      const host = await startBrowserHost({ dispatch: core.dispatch, rendererDir, port: 0, log: { info: () => undefined, error: () => undefined } })
      try {
        const post = (path: string, body: string, headers: Record<string, string> = {}) => {
          const { port } = new URL(host.origin)
          return new Promise<{ status: number; body: string }>((resolve, reject) => {
            let answer: { status: number; body: string } | null = null
            // Settles once the whole body is sent too: a 413 comes back while the rest is still on its way.
            const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
              let text = ''
              res.on('data', (chunk: Buffer) => (text += chunk.toString()))
              res.on('end', () => (answer = { status: res.statusCode ?? 0, body: text }))
            })
            req.on('error', reject)
            req.on('close', () => (answer ? resolve(answer) : reject(new Error(`${path}: no answer`))))
            req.end(body)
          })
        }
        const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
        const { key } = JSON.parse((await post('/session', JSON.stringify({ code }))).body) as { key: string }
        const viaHost = await post('/ipc/workspace:import', JSON.stringify({ fileName: 'big2.qxw.json', text }), { 'x-explorer-key': key })
        expect(viaHost.status).toBe(200)
        expect(JSON.parse(viaHost.body)).toMatchObject({ ok: true, data: { name: 'big2' } })
        const hugeViaHost = await post('/ipc/workspace:import', JSON.stringify({ fileName: 'huge.qxw.json', text: tooBig }), { 'x-explorer-key': key })
        expect(JSON.parse(hugeViaHost.body)).toMatchObject({ ok: false, error: { message: refused.message } })
        // Other channels keep the 1 MiB body limit.
        const other = await post('/ipc/workspace:draft', JSON.stringify({ draft: { text } }), { 'x-explorer-key': key })
        expect(other.status).toBe(413)
      } finally {
        await host.close()
      }
    })

    it('takes drafts and saved queries with long notes and parameter values, within bounds', async () => {
      const longValue = Array.from({ length: 4_000 }, (_, n) => `1("c${n}")`).join('|')
      expect(longValue.length).toBeGreaterThan(20_000)
      const request: QueryRequest = { ...search('x'), steps: [{ endpoint: 'country:FILTER', parameters: { value: longValue } }] }
      expect(await call(core, 'workspace:draft', { draft: { connectionId: 'demo', request, savedQuery: null } })).toEqual({ kept: true })
      const view = await saveQuery(core, { name: 'Many countries', request, notes: 'n'.repeat(100_000) })
      expect(view.queries.at(-1)?.request).toEqual(request)
      const tooLong = await failure(core, 'workspace:save-query', { name: 'Too long', connectionId: 'demo', request: { ...request, steps: [{ endpoint: 'e', parameters: { value: 'x'.repeat(100_001) } }] } })
      expect(tooLong.code).toBe('validation')
      expect((await failure(core, 'workspace:save-query', { name: 'Notes', connectionId: 'demo', request, notes: 'n'.repeat(100_001) })).code).toBe('validation')
      // Other channels keep the common bound.
      expect((await failure(core, 'query:run', { connectionId: 'demo', requestId: 'r', request })).message).toMatch(/text longer than 10,000 characters/)
    })
  })

  describe.skipIf(missing)('connections the file describes and the app lacks', () => {
    it('creates one from the file with the typed secret in the keychain only, under a unique name', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await call(core, 'connections:save', { name: 'Staging', authUrl: 'https://elsewhere.example/auth', queryUrl: 'https://elsewhere.example/query', workspace: 'w', api: 'a', clientId: 'c' })
      const view = await importText(core, 'team.qxw.json', textOf([{ name: 'Staged', connection: 'staging' }], [STAGING]))
      expect(view.bindings).toEqual([{ fileConnectionId: 'staging', connection: STAGING, connectionId: null, how: null }])
      expect((await failure(core, 'workspace:create-connection', { fileConnectionId: 'nope', secret: 'x' })).message).toBe('The workspace has no connection "nope".')

      const canary = `canary-${randomBytes(16).toString('hex')}`
      const created = await call<{ workspace: WorkspaceView; connection: ConnectionView }>(core, 'workspace:create-connection', { fileConnectionId: 'staging', secret: canary })
      expect(created.connection).toMatchObject({
        name: 'Staging (from team)',
        authUrl: STAGING.authUrl,
        queryUrl: STAGING.queryUrl,
        workspace: 'world',
        api: 'places',
        clientId: 'staging-client',
        hasSecret: true,
        builtIn: false,
      })
      expect(created.workspace.bindings[0]).toMatchObject({ connectionId: created.connection.id, how: 'created' })
      expect(created.workspace.dirty).toBe(false)
      expect(await storedSecret(created.connection.id)).toEqual({ origin: 'http://127.0.0.1:9', secret: canary })
      expect(JSON.stringify(created)).not.toContain(canary)

      await saveQuery(core, { name: 'On staging', connectionId: created.connection.id })
      const saved = await call<SaveReply>(core, 'workspace:save', {})
      expect(saved.download!.text).not.toContain(canary)
      expect(JSON.parse(saved.download!.text).queries.map((query: { connection: string }) => query.connection)).toEqual(['staging', 'staging'])
      await close(core)
      const files = filesUnder(dataDir)
      expect(files.some((file) => file.endsWith(SESSION_FILE))).toBe(true)
      for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(canary)
      expect(existsSync(join(dataDir, RECENT_COPIES_DIR))).toBe(true)
      // The keychain entry goes with the connection.
      const again = await browserCore(dataDir)
      await call(again, 'connections:delete', { id: created.connection.id })
      expect(await storedSecret(created.connection.id)).toBeNull()
    })
  })
})
