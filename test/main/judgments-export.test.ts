import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { JUDGMENT_FORMATS, formatJudgments } from '../../src/shared/relevance/judgment-files'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../fixtures/big-workspace'

/**
 * A workspace file at the schema's limits (10,000 queries, 200,000
 * judgments: 15 MiB, over the 5 MiB a message once carried) opened in the
 * browser host the way its page opens one, through the upload route in
 * parts; and its judgments exported: never as text in a reply, but written
 * by main to a file that the page fetches once at a download address (the
 * browser host, over real HTTP on 127.0.0.1), or that Electron writes where
 * its save dialog says. Either way the file is exactly what the export
 * module writes for the set.
 */

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('a set of 200,000 judgments opens from an upload and exports as a file', () => {
  let dir: string
  let core: AppCore
  let host: BrowserHost
  let key: string
  const workspace = bigWorkspace()
  const file = Buffer.from(serializeWorkspace(workspace))
  const big = workspace.sets!.find((set) => set.name === BIG_SET)! as QuerySet

  function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
    const { port } = new URL(host.origin)
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end(options.body)
    })
  }
  const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>
  const ipc = async (channel: string, request: unknown) => {
    const answer = await send(`/ipc/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': key }, body: JSON.stringify(request) })
    expect(answer.status, answer.body.toString('utf8').slice(0, 300)).toBe(200)
    return { reply: json(answer) as { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } }, bytes: answer.body.length }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-judgments-export-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-judgments-export-${process.pid}` })
    host = await startBrowserHost({
      dispatch: core.dispatch,
      rendererDir: dir,
      port: 0,
      log: { info: () => undefined, error: () => undefined },
      uploads: core.uploads,
      downloads: core.downloads,
    })
    const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
    key = json(await send('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })).key as string
  })
  afterAll(async () => {
    await host?.close()
    await core?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('opens the 15 MiB workspace file sent through the upload route in parts, with its 10,000 queries and 200,000 judgments', async () => {
    expect(file.length).toBeGreaterThan(5 * 1024 * 1024)
    const opened = await send('/uploads', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-explorer-key': key },
      body: JSON.stringify({ fileName: 'big.qxw.json', size: file.length, kind: 'workspace' }),
    })
    expect(opened.status, opened.body.toString('utf8')).toBe(200)
    const { ticket, partBytes } = json(opened) as { ticket: string; partBytes: number }
    for (let offset = 0; offset < file.length; offset += partBytes) {
      const part = await send(`/uploads/${ticket}`, {
        method: 'PUT',
        headers: { 'x-explorer-key': key, 'x-upload-offset': String(offset) },
        body: file.subarray(offset, offset + partBytes),
      })
      expect(part.status, part.body.toString('utf8')).toBe(200)
    }
    const { reply } = await ipc('workspace:import', { upload: ticket })
    expect(reply.ok, JSON.stringify(reply.error)).toBe(true)
    expect(reply.data).toMatchObject({ name: 'big' })
    const summary = (reply.data!.sets as { name: string; queries: number; judgments: number }[]).find((set) => set.name === BIG_SET)
    expect(summary).toMatchObject({ queries: 10_000, judgments: 200_000 })
    // The upload's file is gone once read.
    expect(core.uploads!.size).toBe(0)
  })

  it.each(JUDGMENT_FORMATS)('exports the 200,000 judgments as %s: a download address in the reply, the file what the export module writes, fetched once', async (format) => {
    const { reply, bytes } = await ipc('sets:export', { set: BIG_SET, format })
    expect(reply.ok, JSON.stringify(reply.error)).toBe(true)
    // The reply carries an address, not the file (which is megabytes).
    expect(bytes).toBeLessThan(1024)
    const { downloadUrl, fileName, judgments } = reply.data as { downloadUrl: string; fileName: string; judgments: number }
    expect(judgments).toBe(200_000)
    expect(downloadUrl).toMatch(/^\/downloads\/[\w-]{40,}$/)
    const downloaded = await send(downloadUrl)
    expect(downloaded.status).toBe(200)
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(downloaded.headers['content-disposition']))![1]!)).toBe(fileName)
    const expected = formatJudgments(format, big)
    expect(downloaded.body.length).toBe(Buffer.byteLength(expected))
    expect(downloaded.body.toString('utf8') === expected).toBe(true)
    // One time only, and its file is deleted once served.
    expect((await send(downloadUrl)).status).toBe(404)
  })

  it('in Electron writes the file where the save dialog says, and nothing when it is cancelled', async () => {
    const chosen = mkdtempSync(join(tmpdir(), 'qe-judgments-export-chosen-'))
    const source = join(chosen, 'big.qxw.json')
    writeFileSync(source, file)
    let saveTo: string | null = join(chosen, 'exported.qrels')
    const dialogs: FileDialogs = { chooseOpen: async () => source, chooseSave: async () => saveTo }
    const electron = await createAppCore({ dataDir: join(chosen, 'data'), host: 'electron', dialogs, version: 'test', demo: 'none', keychainService: `qe-judgments-export-${process.pid}` })
    try {
      expect((await electron.dispatch('workspace:open', {})).ok).toBe(true)
      const written = await electron.dispatch('sets:export', { set: BIG_SET, format: 'trec-qrels' })
      expect(written).toEqual({ ok: true, data: { fileName: 'exported.qrels', judgments: 200_000, downloadUrl: null } })
      expect(readFileSync(join(chosen, 'exported.qrels'), 'utf8') === formatJudgments('trec-qrels', big)).toBe(true)
      // A folder where the file would go: said in words, nothing half-written.
      saveTo = chosen
      const folder = await electron.dispatch('sets:export', { set: BIG_SET, format: 'quepid-csv' })
      expect(folder).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/could not be written \(EISDIR\); choose another folder or name\.$/) } })
      saveTo = null
      expect(await electron.dispatch('sets:export', { set: BIG_SET, format: 'quepid-csv' })).toEqual({ ok: true, data: null })
      expect(existsSync(join(chosen, 'exported.csv'))).toBe(false)
    } finally {
      await electron.close()
      rmSync(chosen, { recursive: true, force: true })
    }
  })
})
