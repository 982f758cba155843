import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { UploadTickets } from '../../src/main/host/upload-tickets'
import { workspaceHandlers } from '../../src/main/ipc/handlers/workspace-handlers'
import { MAX_WORKSPACE_BYTES } from '../../src/main/workspaces/workspace-files'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'
import { UPLOAD_PART_BYTES, type UploadKind } from '../../src/shared/ipc/uploads'
import { serializeWorkspace, type Workspace, type WorkspaceConnection } from '../../src/shared/workspace/workspace-file'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { failureOf } from '../fixtures/failure-of'
import { localConnection, openHandlerSession, TEMPLATE_QUERY, type HandlerSession } from '../fixtures/handler-session'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/**
 * The workspace channels that do more than call the session: `workspace:import`
 * reads the workspace file the browser host's page sent through the upload
 * route (by its ticket, once, within a workspace file's 32 MiB) and opens it;
 * `workspace:set-facets` keeps the facets declared for an app connection on
 * the file connection bound to it (described in the file first if missing),
 * so a save writes them. Over the real session, registry, upload folder and
 * file thread of handler-session.ts, in a temporary data folder.
 */

/** The other connection of the open workspace: a staging deployment no app connection runs yet. */
const STAGING: WorkspaceConnection = {
  id: 'staging',
  name: 'Staging',
  authUrl: '',
  queryUrl: 'http://127.0.0.1:9/staging',
  workspace: 'world',
  api: 'places',
  config: 'default',
  clientId: '',
}

/** Declarations as main receives them: the request schema has spelt out the defaults. */
const GENRE: FacetDeclaration = { options: 'genre', selection: 'single', resetOnSearchChange: true }
const DIRECTOR: FacetDeclaration = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }

const GONE = 'This upload was used already or has expired (a file sent is kept 10 minutes); choose the file again.'

describe('workspaceHandlers', () => {
  const tempDir = useTempDirs('qe-workspace-handlers')
  let api: RankingServer
  const open: HandlerSession[] = []
  const uploadTables: UploadTickets[] = []
  beforeAll(async () => {
    api = await startRankingServer({})
  })
  afterEach(async () => {
    for (const each of uploadTables.splice(0)) await each.close()
    for (const each of open.splice(0)) await each.close()
  })
  afterAll(() => api?.close())

  /**
   * The handlers as app-core makes them in the browser host, over an open
   * workspace whose connections are Staging and then Local (bound to the app
   * connection "Local"), with one saved query. `bounds`: the upload route's.
   */
  async function handlersOn(bounds?: Partial<Record<UploadKind, number>>) {
    const dataDir = tempDir()
    const parts = await openHandlerSession(dataDir, api, {
      connections: [STAGING, localConnection(api)],
      queries: [TEMPLATE_QUERY],
    })
    open.push(parts)
    const uploadsDir = join(dataDir, 'uploads')
    const uploads = new UploadTickets(uploadsDir, { bounds })
    uploadTables.push(uploads)
    const handlers = await workspaceHandlers({ dataDir, host: 'browser', dialogs: null, uploads, registry: parts.registry, log: parts.log, session: parts.session })
    const current = async () => (await handlers['workspace:current']({}, {})).workspace
    /** The files the upload folder holds: none once an upload was taken, whatever came of it. */
    const leftInUploads = () => readdirSync(uploadsDir)
    return { ...parts, handlers, uploads, current, leftInUploads }
  }

  /** What the page does with the file the user picked: opens an upload of its size and kind, sends its bytes in parts; the ticket. */
  async function sent(uploads: UploadTickets, fileName: string, content: string | Buffer, kind: UploadKind = 'workspace'): Promise<string> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
    const ticket = await uploads.open('page key', fileName, bytes.length, kind)
    for (let offset = 0; offset < bytes.length; offset += UPLOAD_PART_BYTES) {
      await uploads.append('page key', ticket, offset, bytes.subarray(offset, offset + UPLOAD_PART_BYTES))
    }
    return ticket
  }

  /** A workspace file on Local with these saved queries. */
  const fileWith = (...names: string[]) =>
    serializeWorkspace({
      ...emptyWorkspace(),
      connections: [localConnection(api)],
      queries: names.map((name) => ({ name, connection: 'local', notes: '', request: search(name.toLowerCase()) })),
    })

  /** The workspace "Save workspace" writes (the browser host offers it as a download). */
  async function savedFile(handlers: Awaited<ReturnType<typeof handlersOn>>['handlers']): Promise<Workspace> {
    const saved = await handlers['workspace:save']({}, {})
    expect(saved.workspace?.dirty).toBe(false)
    return JSON.parse(saved.download!.text) as Workspace
  }

  describe('workspace:import', () => {
    it('opens the workspace file the page sent: the open workspace afterwards, listed as recent, its upload spent and deleted', async () => {
      const { handlers, uploads, current, leftInUploads, connectionId } = await handlersOn()
      const ticket = await sent(uploads, 'cities é.qxw.json', fileWith('Lyon', 'Nice'))

      const view = await handlers['workspace:import']({ upload: ticket }, {})
      expect([view.name, view.fileName, view.folder, view.saveTarget, view.dirty]).toEqual(['cities é', 'cities é.qxw.json', null, 'download', false])
      expect(view.queries.map((query) => query.name)).toEqual(['Lyon', 'Nice'])
      // Its connection describes the app connection Local exactly: it runs there without asking.
      expect(view.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([['local', connectionId, 'same']])
      expect(await current()).toEqual(view)
      // The browser host cannot open the file again by itself: the copy it kept is a recent workspace.
      expect((await handlers['workspace:recent']({}, {}))[0]).toMatchObject({ name: 'cities é', fileName: 'cities é.qxw.json', kind: 'copy' })

      // Read once, and not kept: the same ticket again is refused and changes nothing.
      expect(uploads.size).toBe(0)
      expect(leftInUploads()).toEqual([])
      expect((await failureOf(handlers['workspace:import']({ upload: ticket }, {}))).toIpc()).toEqual({ code: 'not_found', message: GONE })
      expect(await current()).toEqual(view)
    })

    it('refuses a file over 32 MiB by its name and deletes it; the open workspace, unsaved edit included, is kept; at 32 MiB it opens', async () => {
      // The route's own bound one byte higher, so the file reaches the channel and its bound is the one that answers.
      const { handlers, uploads, current, leftInUploads, connectionId } = await handlersOn({ workspace: MAX_WORKSPACE_BYTES + 1 })
      await handlers['workspace:set-facets']({ connectionId, facets: [GENRE] }, {})
      const before = await current()
      expect(before.dirty).toBe(true)

      const over = await failureOf(handlers['workspace:import']({ upload: await sent(uploads, 'huge.qxw.json', Buffer.alloc(MAX_WORKSPACE_BYTES + 1, 0x20)) }, {}))
      expect(over.toIpc()).toEqual({ code: 'validation', message: '"huge.qxw.json" holds more than 32.0 MiB, more than a workspace file may; it was not opened.' })
      expect(await current()).toEqual(before)
      expect(leftInUploads()).toEqual([])

      // Exactly at the bound (a valid file padded with spaces, which JSON allows): taken.
      const text = fileWith('Lyon')
      const full = Buffer.alloc(MAX_WORKSPACE_BYTES, 0x20)
      full.write(text, 'utf8')
      const view = await handlers['workspace:import']({ upload: await sent(uploads, 'full.qxw.json', full) }, {})
      expect([view.name, view.queries.map((query) => query.name)]).toEqual(['full', ['Lyon']])
      expect(leftInUploads()).toEqual([])
    })

    it('refuses, naming the file, one sent as judgments, one not UTF-8, one not a valid workspace, and an unknown upload; nothing of the open workspace is lost', async () => {
      const { handlers, uploads, current, connectionId } = await handlersOn()
      await handlers['workspace:set-facets']({ connectionId, facets: [GENRE] }, {})
      const before = await current()
      const refused = async (upload: string) => (await failureOf(handlers['workspace:import']({ upload }, {}))).toIpc()

      // Sent as a judgments file: bounded as one (20 MiB), so not read as a workspace file.
      expect(await refused(await sent(uploads, 'grades.tsv', 'q1\td1\t2\n', 'judgments'))).toEqual({
        code: 'validation',
        message: '"grades.tsv" was sent as a judgments file, not as a workspace file; choose the file again.',
      })
      expect(await refused(await sent(uploads, 'latin1.qxw.json', Buffer.from([0x7b, 0xe9, 0x7d])))).toEqual({
        code: 'validation',
        message: '"latin1.qxw.json" is not UTF-8 text, so it is not a workspace file.',
      })
      const notes = await refused(await sent(uploads, 'notes.qxw.json', '# my notes'))
      expect(notes.code).toBe('validation')
      expect(notes.message).toMatch(/^"notes\.qxw\.json" is not /)
      expect(await refused('no-such-ticket')).toEqual({ code: 'not_found', message: GONE })

      expect(await current()).toEqual(before)
      expect((await savedFile(handlers)).connections[1]!.facets).toEqual([GENRE])
    })
  })

  describe('workspace:set-facets', () => {
    it('keeps them on the file connection bound to the app connection, not on another; unsaved until saved, and written by the save', async () => {
      const { handlers, connectionId } = await handlersOn()
      const view = await handlers['workspace:set-facets']({ connectionId, facets: [GENRE, DIRECTOR] }, {})
      expect(view.dirty).toBe(true)
      // Local is the file's second connection: the binding, not the order, says which one.
      expect(view.bindings.map((binding) => [binding.fileConnectionId, binding.connection.facets])).toEqual([
        ['staging', undefined],
        ['local', [GENRE, DIRECTOR]],
      ])
      const saved = await savedFile(handlers)
      expect(saved.connections.map((connection) => [connection.id, connection.facets])).toEqual([
        ['staging', undefined],
        ['local', [GENRE, DIRECTOR]],
      ])

      // The whole list as it should be: an empty one leaves no key behind.
      expect((await handlers['workspace:set-facets']({ connectionId, facets: [] }, {})).bindings[1]!.connection).not.toHaveProperty('facets')
      expect((await savedFile(handlers)).connections[1]).not.toHaveProperty('facets')
    })

    it('describes an app connection the file lacks first (bound to it), and uses a description that fits one not bound yet', async () => {
      const { handlers, registry, connectionId } = await handlersOn()
      const other = await registry.save({ name: 'Other', authUrl: '', queryUrl: 'http://127.0.0.1:9/other', workspace: 'films', api: 'movies', clientId: '' })
      const described = await handlers['workspace:set-facets']({ connectionId: other.id, facets: [DIRECTOR] }, {})
      expect(described.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([
        ['staging', null, null],
        ['local', connectionId, 'chosen'],
        ['other', other.id, 'same'],
      ])
      expect(described.bindings[2]!.connection).toEqual({
        id: 'other',
        name: 'Other',
        authUrl: '',
        queryUrl: 'http://127.0.0.1:9/other',
        workspace: 'films',
        api: 'movies',
        clientId: '',
        facets: [DIRECTOR],
      })
      expect((await savedFile(handlers)).connections.map((connection) => connection.id)).toEqual(['staging', 'local', 'other'])

      // An app connection saved after the file opened that Staging describes: Staging takes the facets and is bound to it; nothing is added.
      const staging = await registry.save({ name: 'My staging', authUrl: '', queryUrl: STAGING.queryUrl, workspace: 'world', api: 'places', clientId: '' })
      const fitted = await handlers['workspace:set-facets']({ connectionId: staging.id, facets: [GENRE] }, {})
      expect(fitted.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.connection.facets])).toEqual([
        ['staging', staging.id, [GENRE]],
        ['local', connectionId, undefined],
        ['other', other.id, [DIRECTOR]],
      ])
    })

    it('refuses a declaration that breaks a rule, naming the facet and field, and an unknown app connection; the file gains no connection', async () => {
      const { handlers, registry, current } = await handlersOn()
      const before = await current()
      const other = await registry.save({ name: 'Other', authUrl: '', queryUrl: 'http://127.0.0.1:9/other', workspace: 'films', api: 'movies', clientId: '' })
      const twice = await failureOf(handlers['workspace:set-facets']({ connectionId: other.id, facets: [GENRE, { ...GENRE, selection: 'multiple' }] }, {}))
      expect([twice.code, twice.message]).toEqual(['validation', 'Facet "genre", Options endpoint: the facet "genre" is declared already.'])
      const unknown = await failureOf(handlers['workspace:set-facets']({ connectionId: 'nope', facets: [GENRE] }, {}))
      expect([unknown.code, unknown.message]).toEqual(['not_found', 'There is no connection with id "nope".'])
      expect(await current()).toEqual(before)
    })
  })
})
