import { writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { startBrowserHost } from '../../src/main/host/browser-host'
import type { ConnectionView, WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { call, failure, search, uploadText } from './support'
import { OLD_DEMO, textOf, workspaceSessions, type SaveReply } from './fixtures/workspace-sessions'

/**
 * The open workspace as the main process keeps it (workspace-session.ts),
 * over the real dispatcher: saved queries and their edits, facets declared by
 * hand, and sizes within bounds.
 */

describe('workspace session', () => {
  const { demo, tempDir, browserCore, close, current, importText, saveQuery } = workspaceSessions()

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
        authUrl: demo().authUrl.replace('127.0.0.1', 'localhost'),
        queryUrl: demo().queryUrl.replace('127.0.0.1', 'localhost'),
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
          connection: { id: 'demo', name: 'Demo', authUrl: demo().authUrl, queryUrl: demo().queryUrl, workspace: 'world', api: 'places', config: 'default', clientId: 'demo', facets: [GENRE, DIRECTOR] },
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

      const many = await failure(core, 'workspace:import', { upload: await uploadText(core, 'many.qxw.json', withFacets(Array.from({ length: 101 }, (_, n) => ({ options: `f${n}` })))) })
      expect(many).toMatchObject({ code: 'validation' })
      expect(many.message).toBe('"many.qxw.json" is not a valid workspace: connections[0].facets: Too big: expected array to have <=100 items.')

      const control = await failure(core, 'workspace:import', { upload: await uploadText(core, 'bad.qxw.json', withFacets([{ options: 'genre\u0007' }])) })
      expect(control.message).toBe('"bad.qxw.json" is not a valid workspace: connections[0].facets[0].options: holds a control character, which no endpoint or parameter name has.')
      const twice = await failure(core, 'workspace:import', { upload: await uploadText(core, 'twice.qxw.json', withFacets([{ options: 'genre' }, { options: 'kind', filter: 'genre:FILTER' }])) })
      expect(twice.message).toBe('"twice.qxw.json" is not a valid workspace: connections[0].facets[1].filter: "genre:FILTER" is the filter of another declared facet already.')
      const typed = await failure(core, 'workspace:import', { upload: await uploadText(core, 'typed.qxw.json', withFacets([{ options: 'genre', selection: 'some' }])) })
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

    it('opens a 6 MiB file sent in parts (no message carries it), and refuses one over 32 MiB in words before a byte is sent', async () => {
      // Over the 5 MiB a message once carried: a workspace file's own bound is 32 MiB.
      const text = bigWorkspace(6 * 1024 * 1024)
      expect(text.length).toBeGreaterThan(6 * 1024 * 1024)
      const view = await importText(core, 'big.qxw.json', text)
      expect(view.queries.length).toBe(JSON.parse(text).queries.length)
      // Two bytes a character: the bound counts the file's bytes.
      const wide = bigWorkspace(5.5 * 1024 * 1024, 'é')
      expect((await importText(core, 'wide.qxw.json', wide)).queries.length).toBe(JSON.parse(wide).queries.length)
      await importText(core, 'big.qxw.json', text)
      expect((await current(core)).workspace.name).toBe('big')

      const rendererDir = tempDir('renderer')
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
      const host = await startBrowserHost({ dispatch: core.dispatch, rendererDir, port: 0, log: { info: () => undefined, error: () => undefined }, uploads: core.uploads })
      try {
        const post = (path: string, body: string, headers: Record<string, string> = {}) => {
          const { port } = new URL(host.origin)
          return new Promise<{ status: number; body: string }>((resolve, reject) => {
            let answer: { status: number; body: string } | null = null
            // Settles once the whole body is sent too: a 413 comes back while the rest is still on its way.
            const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
              let body = ''
              res.on('data', (chunk: Buffer) => (body += chunk.toString()))
              res.on('end', () => (answer = { status: res.statusCode ?? 0, body }))
            })
            req.on('error', reject)
            req.on('close', () => (answer ? resolve(answer) : reject(new Error(`${path}: no answer`))))
            req.end(body)
          })
        }
        const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
        const { key } = JSON.parse((await post('/session', JSON.stringify({ code }))).body) as { key: string }
        // A workspace file one byte over its bound: refused when the upload opens, with its size and the bound in words.
        const tooBig = 32 * 1024 * 1024 + 1
        const refused = await post('/uploads', JSON.stringify({ fileName: 'huge.qxw.json', size: tooBig, kind: 'workspace' }), { 'x-explorer-key': key })
        expect(refused.status).toBe(413)
        expect(JSON.parse(refused.body)).toEqual({
          message: '"huge.qxw.json" holds 33,554,433 bytes (32.0 MiB); a workspace file may hold at most 32.0 MiB (33,554,432 bytes), so it was not opened.',
        })
        // At the bound it is taken: the bound is the workspace file's, not a judgments file's 20 MiB.
        expect((await post('/uploads', JSON.stringify({ fileName: 'full.qxw.json', size: tooBig - 1, kind: 'workspace' }), { 'x-explorer-key': key })).status).toBe(200)
        // A file's text in a message is no longer read: the request names an upload.
        const asText = await post('/ipc/workspace:import', JSON.stringify({ fileName: 'big2.qxw.json', text: 'x' }), { 'x-explorer-key': key })
        expect(JSON.parse(asText.body)).toMatchObject({ ok: false, error: { code: 'validation' } })
        // Every channel keeps the 1 MiB body limit.
        const other = await post('/ipc/workspace:import', JSON.stringify({ fileName: 'big2.qxw.json', text }), { 'x-explorer-key': key })
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
})
