import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import type { ConnectionView, ExportStatus, WorkspaceView } from '../../src/shared/ipc/contract'
import { call, filesUnder, json, keychainMissing, openCore, search, startServer, type TestServer, storedSecret, storedToken, untilEnded, uploadText } from './support'

/**
 * The canary: a profile with a unique secret goes through everything the main
 * process does (save, set secret, queries in every format, cached and fresh,
 * a revoked token replaced, re-authenticate, test connection, failures of
 * several kinds, "Copy as curl with the Demo's secret" asked for it, history,
 * saved queries and workspaces, a connection created from a shared workspace
 * with the secret typed in, exports in every format, an evaluation and an
 * experiment on a server that echoes the token in its errors, delete). Then every file
 * under the data folder, every saved workspace and exported file, every log
 * line, every IPC reply and every error message is searched for the secret
 * and every token issued: none may hold them. It runs as the browser host
 * (saves and exports handed over as downloads) and as Electron (written where
 * a save dialog says, outside the data folder).
 */

const missing = await keychainMissing()

describe.skipIf(missing)('canary: the secret and the token appear nowhere but the keychain', () => {
  const secret = `canary-${randomBytes(16).toString('hex')}`
  let service: RunningService
  let faulty: TestServer
  let dataDir: string
  let core: AppCore
  const replies: unknown[] = []
  const tokens = new Set<string>()

  const send = async (channel: string, request: unknown) => {
    const reply = await core.dispatch(channel, request)
    replies.push(reply)
    return reply
  }
  const noteToken = async (id: string) => {
    const token = await storedToken(id)
    if (token) tokens.add(token)
  }

  beforeAll(async () => {
    service = await startService({
      port: 0,
      log: () => undefined,
      accounts: [
        { clientId: 'canary-client', clientSecret: secret, roles: ['API Usage'], workspaces: ['world'] },
        { clientId: 'team-client', clientSecret: secret, roles: ['API Usage'], workspaces: ['world'] },
      ],
    })
    faulty = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') return json(res, 200, { access_token: `faulty-token-${randomBytes(8).toString('hex')}`, expires_in: 3600 })
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`echo of your request: ${JSON.stringify(req.headers)}`)
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-canary-'))
    core = await openCore(dataDir, { echoLog: false })
  })
  afterAll(async () => {
    await core?.close()
    await Promise.all([service?.close(), faulty?.close()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('goes through everything, then finds neither secret nor token anywhere', async () => {
    const saved = await send('connections:save', {
      name: 'Canary',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: 'world',
      api: 'places',
      clientId: 'canary-client',
    })
    const id = (saved as { data: ConnectionView }).data.id
    expect((await send('secrets:set', { connectionId: id, secret })).ok).toBe(true)
    expect((await send('connections:test', { connectionId: id })).ok).toBe(true)
    await noteToken(id)

    for (const format of ['json', 'csv', 'xlsx'] as const) {
      expect((await send('query:run', { connectionId: id, requestId: format, request: search('berlin', { count: 5, format }) })).ok).toBe(true)
    }
    await send('query:run', { connectionId: id, requestId: 'stats', request: { ...search('berlin'), responseType: 'statistics', options: {} } })
    await send('query:run', { connectionId: id, requestId: 'cached', request: search('berlin', { count: 5, format: 'json' }) })
    service.revokeTokens()
    expect((await send('query:run', { connectionId: id, requestId: 'replayed', request: search('oslo'), fresh: true })).ok).toBe(true)
    await noteToken(id)
    expect((await send('connections:reauth', { connectionId: id })).ok).toBe(true)
    await noteToken(id)

    // Failures: unknown API, bad option, unknown endpoint, a service that echoes headers in a 500.
    expect((await send('query:run', { connectionId: id, requestId: 'f1', request: search('oslo', {}, 'no-such-api') })).ok).toBe(false)
    expect((await send('query:run', { connectionId: id, requestId: 'f2', request: search('oslo', { count: 500 }) })).ok).toBe(false)
    expect(
      (await send('query:run', { connectionId: id, requestId: 'f3', request: { ...search('oslo'), steps: [{ endpoint: 'nope', parameters: {} }] } })).ok,
    ).toBe(false)
    const echo = (await send('connections:save', {
      name: 'Echo',
      authUrl: `${faulty.origin}/auth`,
      queryUrl: `${faulty.origin}/query`,
      workspace: 'world',
      api: 'places',
      clientId: 'canary-client',
    })) as { data: ConnectionView }
    await send('secrets:set', { connectionId: echo.data.id, secret })
    expect((await send('query:run', { connectionId: echo.data.id, requestId: 'f4', request: search('oslo') })).ok).toBe(false)
    await noteToken(echo.data.id)
    // A wrong secret that contains the real one: the 401 must not echo it.
    await send('secrets:set', { connectionId: id, secret: `${secret}-wrong` })
    expect((await send('connections:test', { connectionId: id })).ok).toBe(true)
    expect((await send('query:run', { connectionId: id, requestId: 'f5', request: search('kyiv') })).ok).toBe(false)
    await send('api:describe', { connectionId: id, api: 'places' })
    await send('connections:list', {})
    await send('app:info', {})
    await send('history:list', {})
    // The one channel that gives a secret back gives the Demo's only: a saved connection's is refused, and this launch has no Demo.
    expect((await send('copy-as:demo-with-secret', { connectionId: id, request: search('berlin') })).ok).toBe(false)
    expect((await send('copy-as:demo-with-secret', { connectionId: 'demo', request: search('berlin') })).ok).toBe(false)
    await send('secrets:set', { connectionId: id, secret })
    await workspaceAndExports(send, id)
    // An evaluation and an experiment on the server that echoes the request's headers in its error: kept on disk, and replied.
    const template = { kind: 'editor', connectionId: echo.data.id, request: search('{{query}}') }
    expect((await send('sets:save', { set: { name: 'Canary set', template, queries: [{ id: 'q1', text: 'oslo' }, { id: 'q2', text: 'kyiv' }] } })).ok).toBe(true)
    await send('sets:rate', { set: 'Canary set', query: 'q1', item: '3143244', grade: 3 })
    type Ended = { state: string; evaluationId?: string | null; experimentId?: string | null }
    const ended = (channel: string, runId: string) => untilEnded(async () => ((await send(channel, { runId })) as { ok: true; data: Ended }).data)
    expect((await send('eval:start', { runId: 'canary-eval', set: 'Canary set', target: { connectionId: echo.data.id }, depth: 10 })).ok).toBe(true)
    const evaluation = await ended('eval:status', 'canary-eval')
    const kept = (await send('eval:rankings', { id: evaluation.evaluationId, offset: 0, limit: 10 })) as { ok: true; data: { rankings: { error: string | null }[] } }
    // The server's words are kept with each failed query (its echo of the headers too), the token in them is not.
    expect(kept.data.rankings[0]!.error).toMatch(/echo of your request.*Bearer \[redacted\]/)
    await send('eval:run-file', { id: evaluation.evaluationId })
    const sides = [{ connectionId: echo.data.id, config: 'default' }, { connectionId: echo.data.id, config: 'production' }]
    expect((await send('experiments:start', { runId: 'canary-experiment', set: 'Canary set', sides, depth: 10 })).ok).toBe(true)
    const experiment = await ended('experiments:status', 'canary-experiment')
    expect((await send('experiments:get', { id: experiment.experimentId })).ok).toBe(true)
    await send('connections:delete', { id: echo.data.id })

    expect(tokens.size).toBeGreaterThanOrEqual(3)
    const needles = [secret, ...tokens]
    const files = filesUnder(dataDir)
    expect(files.some((file) => file.endsWith('main.log'))).toBe(true)
    expect(files.some((file) => file.endsWith('connections.json'))).toBe(true)
    expect(files.some((file) => file.endsWith('session.json'))).toBe(true)
    expect(files.filter((file) => file.includes(`${join('exports', '')}`)).length, 'browser-host exports wait in the data folder').toBeGreaterThanOrEqual(4)
    // Kept evaluations and experiments are rows of the data folder's database (JSON text in its pages), scanned as bytes like every file.
    expect(files.some((file) => file.endsWith('data.db')), "the data folder's database").toBe(true)
    expect(((await send('eval:list', {})) as { ok: true; data: unknown[] }).data.length, 'kept evaluations').toBeGreaterThanOrEqual(3)
    expect(((await send('experiments:list', {})) as { ok: true; data: unknown[] }).data.length, 'a kept experiment').toBe(1)
    for (const file of files) {
      const text = readFileSync(file, 'latin1')
      for (const needle of needles) expect(text.includes(needle), `${file} holds a secret`).toBe(false)
    }
    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')
    expect(log).toContain('failed')
    for (const reply of replies) {
      const text = JSON.stringify(reply)
      for (const needle of needles) expect(text.includes(needle), `an IPC reply holds a secret: ${text.slice(0, 200)}`).toBe(false)
      // A server's own words are shown, but a credential it echoes is not.
      if (!(reply as { ok: boolean }).ok) expect((reply as { error: { message: string } }).error.message).not.toMatch(/Bearer (?!\[redacted\])/i)
    }
    // And the keychain does hold them: the test looked in the right place.
    expect((await storedSecret(id))?.secret).toBe(secret)
  })

  it('as Electron: saved workspaces and exports written where the dialog says hold neither secret nor token', async () => {
    const electronData = mkdtempSync(join(tmpdir(), 'qe-canary-electron-'))
    const chosen = mkdtempSync(join(tmpdir(), 'qe-canary-chosen-'))
    let saves = 0
    // The shared workspace opens as Electron opens a file: main reads the one its open dialog picks.
    const sharedFile = join(chosen, 'team.qxw.json')
    const dialogs: FileDialogs = {
      chooseOpen: async () => sharedFile,
      chooseSave: async ({ defaultName }) => join(chosen, `${++saves}-${defaultName}`),
    }
    const electron = await openCore(electronData, { echoLog: false, host: 'electron', dialogs })
    const electronReplies: unknown[] = []
    const sendHere = async (channel: string, request: unknown) => {
      const reply = await electron.dispatch(channel, request)
      electronReplies.push(reply)
      return reply
    }
    try {
      const saved = (await sendHere('connections:save', {
        name: 'Canary',
        authUrl: service.authUrl,
        queryUrl: service.queryUrl,
        workspace: 'world',
        api: 'places',
        clientId: 'canary-client',
      })) as { data: ConnectionView }
      await sendHere('secrets:set', { connectionId: saved.data.id, secret })
      await workspaceAndExports(sendHere, saved.data.id, async (text) => {
        writeFileSync(sharedFile, text)
        const reply = await sendHere('workspace:open', {})
        rmSync(sharedFile)
        return reply
      })
      const electronTokens = new Set(tokens)
      const token = await storedToken(saved.data.id)
      if (token) electronTokens.add(token)
      const written = filesUnder(chosen)
      expect(written.some((file) => file.endsWith('.qxw.json'))).toBe(true)
      expect(written.filter((file) => /\.(csv|json|xlsx|xml|nt)$/.test(file) && !file.endsWith('.qxw.json')).length).toBeGreaterThanOrEqual(3)
      for (const file of [...written, ...filesUnder(electronData)]) {
        const text = readFileSync(file, 'latin1')
        for (const needle of [secret, ...electronTokens]) expect(text.includes(needle), `${file} holds a secret`).toBe(false)
      }
      for (const reply of electronReplies) {
        const text = JSON.stringify(reply)
        for (const needle of [secret, ...electronTokens]) expect(text.includes(needle), `an IPC reply holds a secret: ${text.slice(0, 200)}`).toBe(false)
      }
    } finally {
      await electron.close()
      rmSync(electronData, { recursive: true, force: true })
      rmSync(chosen, { recursive: true, force: true })
    }
  })

  /**
   * Saves a query and the workspace, opens a shared workspace whose
   * connection is unknown and creates it with the canary secret typed in,
   * and exports results in every format the demo allows.
   */
  async function workspaceAndExports(
    sendTo: (channel: string, request: unknown) => Promise<unknown>,
    id: string,
    openFile: (text: string) => Promise<unknown> = async (text) => sendTo('workspace:import', { upload: await uploadText(core, 'team.qxw.json', text) }),
  ): Promise<void> {
    const ok = async <T,>(channel: string, request: unknown): Promise<T> => {
      const reply = (await sendTo(channel, request)) as { ok: boolean; data?: T; error?: { message: string } }
      if (!reply.ok) throw new Error(`${channel}: ${reply.error?.message}`)
      return reply.data as T
    }
    await ok('workspace:save-query', { name: 'Canary query', connectionId: id, request: search('berlin', { count: 5 }) })
    await ok('workspace:save', {})
    const shared = {
      format: 'query-explorer-workspace',
      version: 1,
      connections: [{ id: 'team', name: 'Team canary', authUrl: `${service.authUrl}/`, queryUrl: `${service.queryUrl}/`, workspace: 'world', api: 'places', clientId: 'team-client' }],
      queries: [{ name: 'Team query', connection: 'team', notes: '', request: search('oslo', { count: 5 }) }],
    }
    const openedReply = (await openFile(JSON.stringify(shared))) as { ok: boolean; data?: WorkspaceView; error?: { message: string } }
    if (!openedReply.ok) throw new Error(`opening the shared workspace: ${openedReply.error?.message}`)
    const opened = openedReply.data!
    const unbound = opened.bindings.find((binding) => binding.connectionId === null)
    expect(unbound, 'the shared connection (other URLs) is one the app does not know').toBeDefined()
    const created = await ok<{ connection: ConnectionView }>('workspace:create-connection', { fileConnectionId: unbound!.fileConnectionId, secret })
    const teamRun = await ok<{ status: number }>('query:run', { connectionId: created.connection.id, requestId: 'team', request: search('oslo', { count: 5 }) })
    expect(teamRun.status).toBe(200)
    const teamToken = await storedToken(created.connection.id)
    if (teamToken) tokens.add(teamToken)
    await ok('workspace:save-query', { name: 'Team query 2', connectionId: id, request: search('oslo', { count: 5 }) })
    await ok('workspace:save', {})
    await ok('workspace:draft', { draft: { connectionId: id, request: search('lima'), savedQuery: null } })
    for (const format of ['csv', 'json', 'xlsx', 'xml'] as const) {
      const request = search('san', { count: 10, ...(format === 'xml' ? { config: 'production' } : {}) })
      const started = await ok<ExportStatus | null>('export:start', { connectionId: id, request, format, rows: 150 })
      if (!started) throw new Error('export:start was cancelled')
      let status = started
      while (status.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 10))
        status = await ok<ExportStatus>('export:status', { runId: started.runId })
      }
      expect(status.state, `${format}: ${status.message}`).toBe('done')
    }
  }
})
