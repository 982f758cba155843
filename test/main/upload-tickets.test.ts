import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'
import { MAX_OPEN_UPLOADS, UPLOAD_LIFETIME_MS, UploadTickets } from '../../src/main/host/upload-tickets'
import { MAX_UPLOAD_BYTES, UPLOAD_PART_BYTES } from '../../src/shared/ipc/uploads'
import { sendRaw, type RawRequest } from '../fixtures/host-route'
import { uploadText } from './support'

/**
 * The browser host's upload route, as the page uses it to import a judgments
 * file (real HTTP on 127.0.0.1, the real app core and handler table, real
 * files): a file over 1 MiB sent in parts and imported by `sets:import`
 * naming the upload; the 20 MiB bound, both announced and overrun; parts
 * too large or out of order; a ticket spent once; another page's session,
 * no session, another Host or Origin refused; an upload expired on an
 * injected clock. Every refusal says why in words.
 */

const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'

type Answer = { status: number; json: Record<string, unknown> | null; text: string }

describe('the browser host takes files in parts', () => {
  let dir: string
  let core: AppCore
  let host: BrowserHost
  let key: string
  let now = Date.now()

  /** Raw HTTP, so a test can send the Host, Origin and key a browser page would not let it forge; the answer's JSON, if it is JSON. */
  async function send(path: string, options: RawRequest = {}): Promise<Answer> {
    const answer = await sendRaw(host.origin, path, options)
    const text = answer.body.toString('utf8')
    let json: Record<string, unknown> | null = null
    try {
      json = JSON.parse(text) as Record<string, unknown>
    } catch {
      // a plain-text answer
    }
    return { status: answer.status, json, text }
  }

  async function openSession(): Promise<string> {
    const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
    const answer = await send('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    return answer.json!.key as string
  }

  const open = (fileName: string, size: number, sessionKey = key, headers: Record<string, string> = {}) =>
    send('/uploads', { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': sessionKey, ...headers }, body: JSON.stringify({ fileName, size }) })
  const put = (ticket: string, offset: number | null, part: Buffer, sessionKey = key, headers: Record<string, string> = {}) =>
    send(`/uploads/${ticket}`, {
      method: 'PUT',
      headers: { 'x-explorer-key': sessionKey, ...(offset === null ? {} : { 'x-upload-offset': String(offset) }), ...headers },
      body: part,
    })
  const ipc = async (channel: string, request: unknown) => {
    const answer = await send(`/ipc/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': key }, body: JSON.stringify(request) })
    expect(answer.status, answer.text).toBe(200)
    return answer.json as { ok: true; data: Record<string, unknown> } | { ok: false; error: { code: string; message: string } }
  }

  /** What the page does: a ticket for the file, then its bytes in parts of the size the host names. */
  async function upload(fileName: string, bytes: Buffer): Promise<string> {
    const opened = await open(fileName, bytes.length)
    expect(opened.status, opened.text).toBe(200)
    const { ticket, partBytes } = opened.json as { ticket: string; partBytes: number }
    for (let offset = 0; offset < bytes.length; offset += partBytes) {
      const sent = await put(ticket, offset, bytes.subarray(offset, offset + partBytes))
      expect(sent.status, sent.text).toBe(200)
      expect(sent.json).toEqual({ received: Math.min(offset + partBytes, bytes.length) })
    }
    return ticket
  }

  const partFiles = () => readdirSync(join(dir, 'data', 'uploads')).filter((name) => name.endsWith('.part'))

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-uploads-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    const uploads = new UploadTickets(join(dir, 'data', 'uploads'), { now: () => now })
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-uploads-${process.pid}`, uploads })
    host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: dir, port: 0, log: { info: () => undefined, error: () => undefined }, uploads: core.uploads })
    key = await openSession()
    const opened = await ipc('workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })
    expect(opened.ok).toBe(true)
  })
  afterAll(async () => {
    await host?.close()
    await core?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('imports a judgments file over 1 MiB sent in parts: sets:import names the upload, and its file is gone after', async () => {
    // 12,000 judgments of a new query, with long item ids as real document addresses are: about 1.5 MiB.
    const lines = Array.from({ length: 12_000 }, (_, i) => `bulk 0 https://example.org/places/${String(i).padStart(6, '0')}/${'p'.repeat(90)} ${i % 4}\n`)
    const bytes = Buffer.from(`q01 0 2988507 3\n${lines.join('')}`)
    expect(bytes.length).toBeGreaterThan(UPLOAD_PART_BYTES)
    const ticket = await upload('bulk.qrels', bytes)

    const reply = await ipc('sets:import', { set: SET, upload: ticket })
    expect(reply.ok, JSON.stringify(reply).slice(0, 300)).toBe(true)
    expect((reply as { data: unknown }).data).toMatchObject({ fileName: 'bulk.qrels', queries: 1, judgments: 12_001, replaced: 0 })
    const set = (await ipc('sets:get', { name: SET })) as { ok: true; data: { queries: { id: string }[]; judgments: { query: string; item: string; grade: number }[] } }
    expect(set.data.queries.at(-1)).toMatchObject({ id: 'bulk' })
    const bulk = set.data.judgments.filter((judgment) => judgment.query === 'bulk')
    expect(bulk).toHaveLength(12_000)
    expect(bulk[11_999]).toMatchObject({ item: `https://example.org/places/011999/${'p'.repeat(90)}`, grade: 11_999 % 4 })
    expect(partFiles()).toEqual([])

    // The ticket was spent by that call: neither another read nor another part gets anywhere.
    const again = await ipc('sets:import', { set: SET, upload: ticket })
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/^This upload was used already or has expired .*choose the file again\.$/) } })
    const late = await put(ticket, bytes.length, Buffer.from('x'))
    expect(late.status).toBe(404)
    expect(late.json!.message).toMatch(/^This upload was used already or has expired/)
  })

  it(`refuses a file of ${MAX_UPLOAD_BYTES.toLocaleString('en-US')} bytes and one more when it is announced, in words`, async () => {
    const refused = await open('huge.qrels', MAX_UPLOAD_BYTES + 1)
    expect(refused.status).toBe(413)
    expect(refused.json!.message).toBe(
      '"huge.qrels" holds 20,971,521 bytes; a file sent to the app may hold at most 20.0 MiB (20,971,520 bytes). Split it into smaller files.',
    )
  })

  it('takes 20 MiB whole, and drops an upload that sends one byte more than it announced, saying so', async () => {
    const opened = await open('full.qrels', MAX_UPLOAD_BYTES)
    expect(opened.status).toBe(200)
    const { ticket } = opened.json as { ticket: string }
    const part = Buffer.alloc(UPLOAD_PART_BYTES, 0x61)
    for (let offset = 0; offset < MAX_UPLOAD_BYTES; offset += UPLOAD_PART_BYTES) expect((await put(ticket, offset, part)).status).toBe(200)
    const over = await put(ticket, MAX_UPLOAD_BYTES, Buffer.from('b'))
    expect(over.status).toBe(413)
    expect(over.json!.message).toBe('"full.qrels" sent more than the 20,971,520 bytes it announced, so the upload was dropped; choose the file again.')
    expect((await put(ticket, MAX_UPLOAD_BYTES, Buffer.from('b'))).status).toBe(404)
    expect(await ipc('sets:import', { set: SET, upload: ticket })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(partFiles()).toEqual([])
  })

  it('bounds each kind of file by its own bound, and reads an upload only as the kind it was sent as', async () => {
    const openAs = (fileName: string, size: number, kind: unknown) =>
      send('/uploads', { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': key }, body: JSON.stringify({ fileName, size, kind }) })
    // Over a judgments file's 20 MiB, within a workspace file's 32 MiB: the kind decides.
    expect((await openAs('team.qxw.json', MAX_UPLOAD_BYTES + 1, 'workspace')).status).toBe(200)
    const unknown = await openAs('team.qxw.json', 10, 'spreadsheet')
    expect(unknown.status).toBe(400)
    expect(unknown.json!.message).toMatch(/kind is what the file is, one of judgments, workspace\.$/)
    // A judgments upload is not opened as a workspace, nor the other way round; the ticket stays unread.
    const qrels = await upload('ratings.qrels', Buffer.from('q01 0 2988507 3\n'))
    expect(await ipc('workspace:import', { upload: qrels })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: '"ratings.qrels" was sent as a judgments file, not as a workspace file; choose the file again.' },
    })
    const workspace = await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8'))
    expect(await ipc('sets:import', { set: SET, upload: workspace })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: '"world.qxw.json" was sent as a workspace file, not as a judgments file; choose the file again.' },
    })
  })

  it('refuses a part over 1 MiB, a part out of order or without its offset, and a read before the file is whole, each in words', async () => {
    const opened = await open('parts.csv', 3 * UPLOAD_PART_BYTES)
    const { ticket } = opened.json as { ticket: string }
    const tooLarge = await put(ticket, 0, Buffer.alloc(UPLOAD_PART_BYTES + 1, 0x61))
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.json!.message).toBe('A part may hold at most 1.0 MiB; send the file in parts of that size.')
    expect((await put(ticket, 0, Buffer.alloc(10, 0x61))).status).toBe(200)
    const skipped = await put(ticket, 20, Buffer.alloc(10, 0x61))
    expect(skipped.status).toBe(409)
    expect(skipped.json!.message).toBe('This part starts at byte 20, but 10 bytes of "parts.csv" have arrived: send the parts in order.')
    const noOffset = await put(ticket, null, Buffer.alloc(10, 0x61))
    expect(noOffset.status).toBe(400)
    expect(noOffset.json!.message).toBe('Send each part with the header x-upload-offset: the byte it starts at, a whole number.')
    const early = await ipc('sets:import', { set: SET, upload: ticket })
    expect(early).toMatchObject({ ok: false, error: { code: 'validation', message: '"parts.csv" has not arrived whole (10 of 3,145,728 bytes); send the rest first.' } })
    // Still open after all that: the next part in order is taken.
    expect((await put(ticket, 10, Buffer.alloc(10, 0x61))).json).toEqual({ received: 20 })
    const badOpen = await send('/uploads', { method: 'POST', headers: { 'x-explorer-key': key }, body: '{"fileName": "x.csv", "size": -1}' })
    expect(badOpen.status).toBe(400)
    expect(badOpen.json!.message).toMatch(/size is the number of bytes in the file, a whole number from 0/)
  })

  it("takes parts only from the page that opened the upload, with its session key, from the host's own address", async () => {
    const opened = await open('mine.csv', 10)
    const { ticket } = opened.json as { ticket: string }
    const part = Buffer.from('query,doc\n')
    expect((await open('x.csv', 10, '')).status).toBe(401)
    expect((await open('x.csv', 10, `${key.slice(0, -1)}x`)).status).toBe(401)
    expect((await put(ticket, 0, part, '')).status).toBe(401)
    const other = await put(ticket, 0, part, await openSession())
    expect(other.status).toBe(403)
    expect(other.json!.message).toBe('This upload was opened by another page of the app; choose the file again in this one.')
    expect((await put(ticket, 0, part, key, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await put(ticket, 0, part, key, { host: `evil.example:${new URL(host.origin).port}` })).status).toBe(403)
    expect((await send('/uploads', { method: 'GET', headers: { 'x-explorer-key': key } })).status).toBe(405)
    // None of that touched it: its own page's part is taken.
    expect((await put(ticket, 0, part)).json).toEqual({ received: 10 })
  })

  it(`forgets an upload ${UPLOAD_LIFETIME_MS / 60_000} minutes after its last part, and its file with it`, async () => {
    const opened = await open('slow.csv', 20)
    const { ticket } = opened.json as { ticket: string }
    expect((await put(ticket, 0, Buffer.alloc(10, 0x61))).status).toBe(200)
    now += UPLOAD_LIFETIME_MS - 1
    expect((await put(ticket, 10, Buffer.alloc(5, 0x61))).status).toBe(200)
    now += UPLOAD_LIFETIME_MS + 1
    const late = await put(ticket, 15, Buffer.alloc(5, 0x61))
    expect(late.status).toBe(404)
    expect(late.json!.message).toMatch(/^This upload was used already or has expired \(a file sent is kept 10 minutes\)/)
  })

  it(`keeps at most ${MAX_OPEN_UPLOADS} uploads open: a new one makes room by dropping the oldest`, async () => {
    now += UPLOAD_LIFETIME_MS + 1
    const tickets: string[] = []
    for (let i = 0; i <= MAX_OPEN_UPLOADS; i++) tickets.push(((await open(`f${i}.csv`, 1)).json as { ticket: string }).ticket)
    expect(core.uploads!.size).toBe(MAX_OPEN_UPLOADS)
    expect((await put(tickets[0]!, 0, Buffer.from('a'))).status).toBe(404)
    expect((await put(tickets[MAX_OPEN_UPLOADS]!, 0, Buffer.from('a'))).status).toBe(200)
    expect(partFiles().length).toBeLessThanOrEqual(MAX_OPEN_UPLOADS)
  })
})
