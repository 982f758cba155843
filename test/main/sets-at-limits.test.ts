import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'
import { MAX_SET_QUERIES } from '../../src/shared/relevance/query-set'
import { downloadedFile, uploadText } from './support'

/**
 * Query sets at the sizes the workspace file allows, through the browser
 * host as the window sends them (real HTTP on 127.0.0.1, the session key,
 * the dispatcher's bounds, the handler table): a set of 10,000 queries
 * saves, a qrels export that cannot be written says why in words, and a
 * file with 100,000 bad judgments is refused with a readable list.
 */

const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'
const TEMPLATE = 'City search (query set template)'

type Reply = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } }

describe('query sets at the limits of the file, through the browser host', () => {
  let dir: string
  let core: AppCore
  let host: BrowserHost
  let key: string

  /** One IPC call as the page makes it: POST /ipc/<channel> with the session key. */
  function ipc(channel: string, request: unknown): Promise<{ status: number; reply: Reply | null }> {
    const { port } = new URL(host.origin)
    const body = JSON.stringify(request)
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: `/ipc/${channel}`, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-explorer-key': key } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            let reply: Reply | null = null
            try {
              reply = JSON.parse(text) as Reply
            } catch {
              // a refusal before the dispatcher (413) is plain text
            }
            resolve({ status: res.statusCode ?? 0, reply })
          })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }
  const ok = async (channel: string, request: unknown) => {
    const { status, reply } = await ipc(channel, request)
    expect(status, `${channel} answered ${status}`).toBe(200)
    if (!reply!.ok) throw new Error(`${channel}: ${reply!.error.code}: ${reply!.error.message}`)
    return reply!.data
  }
  const refused = async (channel: string, request: unknown) => {
    const { status, reply } = await ipc(channel, request)
    expect(status, `${channel} answered ${status}`).toBe(200)
    expect(reply!.ok, `${channel} succeeded, a refusal was expected`).toBe(false)
    return (reply as Extract<Reply, { ok: false }>).error
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-sets-limits-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-sets-limits-${process.pid}` })
    host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: dir, port: 0, log: { info: () => undefined, error: () => undefined } })
    const answer = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(host.origin)
      const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
      const req = httpRequest({ host: '127.0.0.1', port, path: '/session', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve(body))
      })
      req.on('error', reject)
      req.end(JSON.stringify({ code }))
    })
    key = (JSON.parse(answer) as { key: string }).key
    await ok('workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })
  })
  afterAll(async () => {
    await host?.close()
    await core?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it(`saves a set of ${MAX_SET_QUERIES.toLocaleString('en-US')} queries (a message over 1 MiB), and refuses one more in words`, async () => {
    // Questions people type are often this long: the form's message is then well over the generic 1 MiB.
    const queries = Array.from({ length: MAX_SET_QUERIES }, (_, i) => ({
      id: `q${i + 1}`,
      text: `which cities of more than ${i} inhabitants lie within a day's drive of the coast, sorted by population, largest first`,
      tags: ['long', 'generated'],
    }))
    const form = { name: 'Ten thousand', template: { kind: 'saved', query: TEMPLATE }, notes: 'n'.repeat(20_000), queries }
    expect(Buffer.byteLength(JSON.stringify({ set: form }))).toBeGreaterThan(1024 * 1024)
    const view = (await ok('sets:save', { set: form })) as { sets: { name: string; queries: number }[] }
    expect(view.sets.find((set) => set.name === 'Ten thousand')).toMatchObject({ queries: MAX_SET_QUERIES })
    const saved = (await ok('sets:get', { name: 'Ten thousand' })) as { queries: { id: string; text: string }[]; notes: string }
    expect(saved.queries).toHaveLength(MAX_SET_QUERIES)
    expect(saved.queries[MAX_SET_QUERIES - 1]).toMatchObject(queries[MAX_SET_QUERIES - 1]!)
    expect(saved.notes).toHaveLength(20_000)
    // Saved again under its own name (Edit set's Save), unchanged.
    await ok('sets:save', { set: form, previousName: 'Ten thousand' })

    const tooMany = { ...form, name: 'Too many', queries: [...queries, { id: 'q-extra', text: 'one more' }] }
    const error = await refused('sets:save', { set: tooMany })
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/set\.queries: .*10,?000/)
  })

  it('says in words why a qrels export cannot be written (an item id with white space), not "Something went wrong"', async () => {
    await ok('sets:rate', { set: SET, query: 'q01', item: 'two words', grade: 3 })
    const error = await refused('sets:export', { set: SET, format: 'trec-qrels' })
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/"two words" of the query "q01" cannot be written in a TREC qrels file: it has white space in it/)
    // The other formats carry the same item as it is.
    const csv = (await ok('sets:export', { set: SET, format: 'quepid-csv' })) as { downloadUrl: string }
    expect(downloadedFile(core, csv.downloadUrl).text).toContain('two words')
    await ok('sets:rate', { set: SET, query: 'q01', item: 'two words', grade: null })
  })

  it('refuses a workspace with 100,000 bad judgments with the first few and a count, not a crash', async () => {
    const world = JSON.parse(readFileSync(WORLD, 'utf8')) as { sets: { queries: { id: string }[]; judgments: unknown[] }[] }
    const set = world.sets[0]!
    // Grades over 100 break the schema's own rule for each judgment: one problem each.
    set.judgments = Array.from({ length: 100_000 }, (_, i) => ({ query: set.queries[i % set.queries.length]!.id, item: `i${i}`, grade: 200 }))
    const error = await refused('workspace:import', { upload: await uploadText(core, 'bad.qxw.json', JSON.stringify(world)) })
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/^"bad\.qxw\.json" is not a valid workspace: sets\[0\]\.judgments\[0\]\.grade: .*100/)
    expect(error.message).toMatch(/\(and 99,995 more\)\.$/)
    expect(error.message.length).toBeLessThan(2_000)
  })
})
