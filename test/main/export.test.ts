import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
// The XML parser exceljs itself reads workbooks with: an independent check that the merged document is well formed.
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import type { ConnectionView, ExportStatus, QueryReply } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { ResultsResponse } from '../../src/shared/responses'
import { call, failure, filesUnder, keychainMissing, openCore, search, startServer, storedToken, type TestServer } from './support'
import { readCsv } from '../fixtures/csv'
import { startWorldService } from '../fixtures/world-service'

/**
 * Export results over the real embedded service: the main process asks the
 * pages in the format chosen and writes one file, never through the window.
 * In Electron the file goes where the save dialog says (here a FileDialogs
 * that answers with a temporary path, standing in for the user's click); in
 * the browser host it becomes a one-time download served over real HTTP.
 */

const missing = await keychainMissing()


function wellFormedItems(xml: string): { root: string; roots: number; items: number; ranks: number[] } {
  const parser = new SaxesParser()
  let depth = 0
  let roots = 0
  let root = ''
  let items = 0
  const ranks: number[] = []
  parser.on('opentag', (tag) => {
    if (depth === 0) {
      roots++
      root = tag.name
    }
    if (depth === 1 && tag.name === 'item') {
      items++
      ranks.push(Number(tag.attributes.rank))
    }
    depth++
  })
  parser.on('closetag', () => void depth--)
  parser.write(xml).close()
  return { root, roots, items, ranks }
}

async function finished(core: AppCore, runId: string): Promise<ExportStatus> {
  for (;;) {
    const status = await call<ExportStatus>(core, 'export:status', { runId })
    if (status.state !== 'running') return status
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10))
}

const atPage = (text: string, offset: number, count: number): QueryRequest => search(text, { count, ...(offset ? { offset } : {}) })

describe.skipIf(missing)('export', () => {
  const secret = `export-${randomBytes(16).toString('hex')}`
  let service: RunningService
  let pages: TestServer
  /** The responses the page server holds back (a page that never comes), and how many of them the client gave up on. */
  const held: ServerResponse[] = []
  let abandoned = 0
  let root: string
  let saveDir: string
  let electron: AppCore
  let browser: AppCore
  let host: BrowserHost
  let electronId: string
  let browserId: string
  let pagesId: string
  const hostLog: string[] = []
  /** What the save dialog answers next; and what it was asked. */
  let nextSave: string | null = null
  const dialogsAsked: { title: string; defaultName: string; filters: { name: string; extensions: string[] }[] }[] = []
  const exported: Buffer[] = []

  const dialogs: FileDialogs = {
    chooseOpen: async () => null,
    chooseSave: async (options) => {
      dialogsAsked.push(options)
      return nextSave
    },
  }

  /** Exports through the Electron core to `name` in the save folder; the finished status and the file's bytes. */
  async function exportFile(name: string, connectionId: string, request: QueryRequest, format: string, rows: number) {
    nextSave = join(saveDir, name)
    const started = await call<ExportStatus | null>(electron, 'export:start', { connectionId, request, format, rows })
    expect(started).not.toBeNull()
    const status = await finished(electron, started!.runId)
    const bytes = existsSync(nextSave) ? readFileSync(nextSave) : null
    if (bytes) exported.push(bytes)
    return { status, bytes, path: nextSave }
  }

  beforeAll(async () => {
    service = await startWorldService('export-client', secret)
    // A query host whose csv pages differ in their columns (as the service's may), and one whose second page never comes.
    pages = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      const offset = Number(url.searchParams.get('offset') ?? 0)
      if (url.pathname.includes('/query/hold/') && offset > 0) {
        held.push(res)
        res.on('close', () => void abandoned++)
        return
      }
      const headers = offset === 0 ? ['rank', 'probability', '1.id', '1.class', '1.name'] : ['rank', 'probability', '1.id', '1.class', '1.population', '1.name']
      const count = offset >= 200 ? 30 : Number(url.searchParams.get('count'))
      const rows = Array.from({ length: count }, (_, i) => {
        const rank = offset + i + 1
        const cells: Record<string, string> = { rank: String(rank), probability: '0.5', '1.id': `id${rank}`, '1.class': 'city', '1.name': `Town, "${rank}"`, '1.population': String(rank * 10) }
        return headers.map((name) => cells[name]!)
      })
      const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
      res.end([headers, ...rows].map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n')
    })
    root = mkdtempSync(join(tmpdir(), 'qe-export-'))
    saveDir = join(root, 'chosen')
    mkdirSync(saveDir)
    electron = await openCore(join(root, 'electron-data'), { host: 'electron', dialogs, echoLog: false })
    browser = await openCore(join(root, 'browser-data'), { echoLog: false })
    const rendererDir = join(root, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    host = await startBrowserHost({
      dispatch: browser.dispatch,
      rendererDir,
      port: 0,
      downloads: browser.downloads,
      log: { info: (line) => void hostLog.push(line), error: (line, error) => void hostLog.push(`${line} ${String(error)}`) },
    })
    const connection = { name: 'Atlas', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: 'world', api: 'places', clientId: 'export-client' }
    electronId = (await call<ConnectionView>(electron, 'connections:save', connection)).id
    await call(electron, 'secrets:set', { connectionId: electronId, secret })
    browserId = (await call<ConnectionView>(browser, 'connections:save', connection)).id
    await call(browser, 'secrets:set', { connectionId: browserId, secret })
    pagesId = (await call<ConnectionView>(electron, 'connections:save', { name: 'Pages', authUrl: '', queryUrl: `${pages.origin}/query`, workspace: 'world', api: 'places', clientId: '' })).id
  })
  afterAll(async () => {
    for (const res of held) res.destroy()
    await host?.close()
    await electron?.close()
    await browser?.close()
    await Promise.all([service?.close(), pages?.close()])
    rmSync(root, { recursive: true, force: true })
  })

  it('CSV of 250 rows: one header, exactly 250 data rows, the same rows as three pages of JSON', async () => {
    const { status, bytes, path } = await exportFile('san.csv', electronId, search('san', { count: 10 }), 'csv', 250)
    expect(status).toMatchObject({ state: 'done', rows: 250, rowsWanted: 250, fileName: 'san.csv', message: null, downloadUrl: null })
    expect(status.bytes).toBe(bytes!.length)
    expect(dialogsAsked.at(-1)).toEqual({ title: 'Export results', defaultName: 'san.csv', filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }] })

    const text = bytes!.toString('utf8')
    // UTF-8 with its mark, so that a spreadsheet reads "São Paulo" as such.
    expect(text.startsWith('\uFEFFrank,probability,id,class,name')).toBe(true)
    const [header, ...rows] = readCsv(text)
    expect(rows).toHaveLength(250)
    for (const row of rows) expect(row).toHaveLength(header!.length)

    const json = await Promise.all(
      [atPage('san', 0, 100), atPage('san', 100, 100), atPage('san', 200, 50)].map(
        async (request, i) => (await call<QueryReply>(electron, 'query:run', { connectionId: electronId, requestId: `page-${i}`, request })).body as ResultsResponse,
      ),
    )
    const items = json.flatMap((page) => page.items)
    expect(items).toHaveLength(250)
    const column = (name: string) => header!.indexOf(name)
    expect(rows.map((row) => Number(row[column('rank')]))).toEqual(items.map((item) => item.rank))
    expect(rows.map((row) => row[column('id')])).toEqual(items.map((item) => (item.tuple as { id: string }[])[0]!.id))
    expect(rows.map((row) => row[column('name')])).toEqual(items.map((item) => (item.tuple as unknown as { attributes: { name: string } }[])[0]!.attributes.name))
    // Nothing but the file itself is left beside it.
    expect(readdirSync(saveDir)).toEqual(['san.csv'])
    expect(path).toBe(join(saveDir, 'san.csv'))
  })

  it('CSV whose pages have different columns: one header of their union, every cell under its own name', async () => {
    const { status, bytes } = await exportFile('varied.csv', pagesId, search('varied', { count: 10 }), 'csv', 250)
    // The third page holds 30 rows: the results end there.
    expect(status).toMatchObject({ state: 'done', rows: 230, rowsWanted: 250 })
    const [header, ...rows] = readCsv(bytes!.toString('utf8'))
    expect(header).toEqual(['rank', 'probability', 'id', 'class', 'name', 'population'])
    expect(rows).toHaveLength(230)
    const named = rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]])))
    expect(named[0]).toEqual({ rank: '1', probability: '0.5', id: 'id1', class: 'city', name: 'Town, "1"', population: '' })
    expect(named[150]).toEqual({ rank: '151', probability: '0.5', id: 'id151', class: 'city', name: 'Town, "151"', population: '1510' })
  })

  it("CSV and XLSX of the grid's columns: those columns in the grid's order, readable headers, a file named after the saved query", async () => {
    const columns = ['rank', '1.name', '1.id', '1.country', '1.nowhere']
    const request = search('san', { count: 10 })
    const expected = ['rank', 'name', 'id', 'country', 'nowhere']
    nextSave = join(saveDir, 'chosen.csv')
    const started = await call<ExportStatus>(electron, 'export:start', { connectionId: electronId, request, format: 'csv', rows: 120, columns, savedQuery: 'San Europe' })
    expect(dialogsAsked.at(-1)?.defaultName).toBe('San Europe.csv')
    expect(await finished(electron, started.runId)).toMatchObject({ state: 'done', rows: 120 })
    const [header, ...rows] = readCsv(readFileSync(join(saveDir, 'chosen.csv'), 'utf8'))
    expect(header).toEqual(expected)
    expect(rows).toHaveLength(120)
    const json = (await call<QueryReply>(electron, 'query:run', { connectionId: electronId, requestId: 'grid-columns', request: atPage('san', 0, 100) })).body as ResultsResponse
    const first = json.items[0]!.tuple as unknown as { id: string; attributes: { name: string; country: string } }[]
    // A column no page has (the grid may show one the pages do not) is written empty, so the file keeps the grid's shape.
    expect(rows[0]).toEqual(['1', first[0]!.attributes.name, first[0]!.id, first[0]!.attributes.country, ''])

    nextSave = join(saveDir, 'chosen-columns.xlsx')
    const again = await call<ExportStatus>(electron, 'export:start', { connectionId: electronId, request, format: 'xlsx', rows: 30, columns })
    expect(dialogsAsked.at(-1)?.defaultName).toBe('san.xlsx')
    expect(await finished(electron, again.runId)).toMatchObject({ state: 'done', rows: 30 })
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(readFileSync(join(saveDir, 'chosen-columns.xlsx')) as unknown as Parameters<typeof book.xlsx.load>[0])
    expect((book.getWorksheet('results')!.getRow(1).values as unknown[]).slice(1)).toEqual(expected)
    // Formats that write items whole take no column choice.
    nextSave = join(saveDir, 'chosen.json')
    const items = await call<ExportStatus>(electron, 'export:start', { connectionId: electronId, request, format: 'json', rows: 5, columns })
    expect(await finished(electron, items.runId)).toMatchObject({ state: 'done', rows: 5 })
    expect((JSON.parse(readFileSync(join(saveDir, 'chosen.json'), 'utf8')) as { tuple: unknown }[])[0]!.tuple).toEqual(json.items[0]!.tuple)
  })

  it('JSON of 250 rows is one array of the 250 items', async () => {
    const { status, bytes } = await exportFile('san.json', electronId, search('san'), 'json', 250)
    expect(status).toMatchObject({ state: 'done', rows: 250 })
    const items = JSON.parse(bytes!.toString('utf8')) as { rank: number }[]
    expect(Array.isArray(items)).toBe(true)
    expect(items.map((item) => item.rank)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
  })

  it('starts at the request\'s offset, and stops where the results end', async () => {
    const { status, bytes } = await exportFile('offset.json', electronId, search('san', { count: 25, offset: 50 }), 'json', 30)
    expect(status).toMatchObject({ state: 'done', rows: 30 })
    expect((JSON.parse(bytes!.toString('utf8')) as { rank: number }[]).map((item) => item.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 51))

    const few = await exportFile('few.json', electronId, search('springfield'), 'json', 1_000)
    expect(few.status).toMatchObject({ state: 'done', rowsWanted: 1_000 })
    expect(few.status.rows).toBeGreaterThan(0)
    expect(few.status.rows).toBeLessThan(100)
    expect(JSON.parse(few.bytes!.toString('utf8'))).toHaveLength(few.status.rows)
  })

  it('XML (on a configuration that enables it) is one well-formed document holding every item', async () => {
    const { status, bytes } = await exportFile('san.xml', electronId, search('san', { config: 'production' }), 'xml', 150)
    expect(status).toMatchObject({ state: 'done', rows: 150 })
    const parsed = wellFormedItems(bytes!.toString('utf8'))
    expect(parsed).toMatchObject({ root: 'results', roots: 1, items: 150 })
    expect(parsed.ranks).toEqual(Array.from({ length: 150 }, (_, i) => i + 1))
    expect(bytes!.toString('utf8').match(/<type>/g)).toHaveLength(1)
  })

  it('a format the server refuses (406) fails with the server\'s message, and leaves no file', async () => {
    const xml = await exportFile('refused.xml', electronId, search('san'), 'xml', 150)
    expect(xml.status.state).toBe('failed')
    expect(xml.status.message).toMatch(/^The service answered 406: format xml is not enabled for this configuration/)
    expect(xml.bytes).toBeNull()

    const rdf = await exportFile('refused.nt', electronId, search('san'), 'rdf', 10)
    expect(rdf.status.state).toBe('failed')
    expect(rdf.status.message).toMatch(/406: format rdf is only for endpoints whose output is \[STRING,STRING,STRING\]/)
    expect(readdirSync(saveDir).filter((name) => name.startsWith('refused') || name.endsWith('.part'))).toEqual([])
  })

  it('RDF of an endpoint that gives [STRING,STRING,STRING] is the pages\' N-Triples, one statement per row', async () => {
    const triples: QueryRequest = { ...search('san'), steps: [...search('san').steps, { endpoint: 'triples', parameters: {} }] }
    const { status, bytes } = await exportFile('san.nt', electronId, triples, 'rdf', 150)
    expect(status).toMatchObject({ state: 'done', rows: 150, fileName: 'san.nt' })
    const lines = bytes!.toString('utf8').split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(150)
    for (const line of lines) expect(line).toMatch(/^<[^>\s]+> <[^>\s]+> (?:<[^>\s]+>|"(?:[^"\\]|\\.)*") \.$/)
    expect(dialogsAsked.at(-1)?.defaultName).toBe('san.nt')
  })

  it('XLSX of 250 rows is one workbook with one header and 250 rows, numbers kept as numbers', async () => {
    const { status, bytes } = await exportFile('san.xlsx', electronId, search('san'), 'xlsx', 250)
    expect(status).toMatchObject({ state: 'done', rows: 250 })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(bytes! as unknown as Parameters<typeof workbook.xlsx.load>[0])
    const sheet = workbook.getWorksheet('results')!
    expect(sheet.rowCount).toBe(251)
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header.slice(0, 4)).toEqual(['rank', 'probability', 'id', 'class'])
    const ranks = Array.from({ length: 250 }, (_, i) => sheet.getRow(i + 2).getCell(1).value)
    expect(ranks).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
    const csv = readCsv((await exportFile('san-again.csv', electronId, search('san'), 'csv', 250)).bytes!.toString('utf8'))
    const idColumn = header.indexOf('id') + 1
    expect(Array.from({ length: 250 }, (_, i) => String(sheet.getRow(i + 2).getCell(idColumn).value))).toEqual(csv.slice(1).map((row) => row[2]))
    expect(typeof sheet.getRow(2).getCell(header.indexOf('population') + 1).value).toBe('number')
  })

  it('Cancel stops the page in flight and leaves no file, partial or whole', async () => {
    nextSave = join(saveDir, 'held.csv')
    const started = (await call<ExportStatus>(electron, 'export:start', { connectionId: pagesId, request: search('hold'), format: 'csv', rows: 1_000 }))!
    await until(async () => (await call<ExportStatus>(electron, 'export:status', { runId: started.runId })).rows === 100)
    await until(() => held.length === 1)
    const cancelled = await call<ExportStatus>(electron, 'export:cancel', { runId: started.runId })
    expect(cancelled).toMatchObject({ state: 'cancelled', rows: 100, downloadUrl: null })
    expect(cancelled.message).toMatch(/cancelled/)
    await until(() => abandoned === 1)
    expect(readdirSync(saveDir).filter((name) => name.includes('held'))).toEqual([])
    expect(readdirSync(join(root, 'electron-data', 'exports', 'spool'))).toEqual([])
    // Cancelling again changes nothing.
    expect(await call(electron, 'export:cancel', { runId: started.runId })).toEqual(cancelled)
  })

  it('runs two exports at once at most, and asks nothing when the save dialog is cancelled', async () => {
    nextSave = join(saveDir, 'one.csv')
    const one = (await call<ExportStatus>(electron, 'export:start', { connectionId: pagesId, request: search('hold'), format: 'csv', rows: 500 }))!
    nextSave = join(saveDir, 'two.csv')
    const two = (await call<ExportStatus>(electron, 'export:start', { connectionId: pagesId, request: search('hold'), format: 'csv', rows: 500 }))!
    const asked = dialogsAsked.length
    const third = await failure(electron, 'export:start', { connectionId: pagesId, request: search('hold'), format: 'csv', rows: 500 })
    expect(third).toMatchObject({ code: 'validation', message: '2 exports are running already: wait for one to finish, or cancel one.' })
    expect(dialogsAsked).toHaveLength(asked)
    await call(electron, 'export:cancel', { runId: one.runId })
    await call(electron, 'export:cancel', { runId: two.runId })

    nextSave = null
    expect(await call(electron, 'export:start', { connectionId: electronId, request: search('san'), format: 'csv', rows: 10 })).toBeNull()
    expect(dialogsAsked).toHaveLength(asked + 1)
  })

  it('refuses what cannot be exported before any dialog: a statistics request, an invalid one, an unknown export', async () => {
    const asked = dialogsAsked.length
    const statistics = await failure(electron, 'export:start', { connectionId: electronId, request: { ...search('san'), responseType: 'statistics', options: {} }, format: 'csv', rows: 10 })
    expect(statistics.message).toMatch(/Export writes rows/)
    const tooMany = await failure(electron, 'export:start', { connectionId: electronId, request: search('san'), format: 'csv', rows: 100_001 })
    expect(tooMany.code).toBe('validation')
    const badOption = await failure(electron, 'export:start', { connectionId: electronId, request: search('san', { cutoff: 7 }), format: 'csv', rows: 10 })
    expect(badOption.message).toMatch(/cutoff/)
    expect(dialogsAsked).toHaveLength(asked)
    expect((await failure(electron, 'export:status', { runId: 'nope' })).code).toBe('not_found')
  })

  it('browser host: a one-time download address, served once over HTTP as an attachment, then gone with its file', async () => {
    const started = (await call<ExportStatus>(browser, 'export:start', { connectionId: browserId, request: search('san'), format: 'csv', rows: 120 }))!
    expect(started.fileName).toBe('san.csv')
    const status = await finished(browser, started.runId)
    expect(status).toMatchObject({ state: 'done', rows: 120 })
    expect(status.downloadUrl).toMatch(/^\/downloads\/[\w-]{43}$/)
    const exportsDir = join(root, 'browser-data', 'exports')
    expect(readdirSync(exportsDir).filter((name) => name.endsWith('.csv'))).toHaveLength(1)

    // Another site's page (or a rebinding DNS name) is refused, and does not spend the ticket.
    const { port } = new URL(host.origin)
    const foreign = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: status.downloadUrl!, headers: { host: 'evil.example' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
    expect(foreign).toBe(403)

    const first = await fetch(`${host.origin}${status.downloadUrl}`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(first.headers.get('content-disposition')).toBe(`attachment; filename="san.csv"; filename*=UTF-8''san.csv`)
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    const bytes = Buffer.from(await first.arrayBuffer())
    exported.push(bytes)
    expect(bytes.length).toBe(status.bytes)
    expect(readCsv(bytes.toString('utf8')).slice(1)).toHaveLength(120)

    const second = await fetch(`${host.origin}${status.downloadUrl}`)
    expect(second.status).toBe(404)
    await until(() => readdirSync(exportsDir).filter((name) => name.endsWith('.csv')).length === 0)
    expect((await fetch(`${host.origin}/downloads/${'A'.repeat(43)}`)).status).toBe(404)

    // The ticket is never logged, by the host or the core.
    const ticket = status.downloadUrl!.slice('/downloads/'.length)
    expect(hostLog.join('\n')).not.toContain(ticket)
    expect(readFileSync(join(root, 'browser-data', 'logs', 'main.log'), 'utf8')).not.toContain(ticket)
  })

  it('the canary: no secret or token in any exported file, or anywhere under the data folders', async () => {
    const tokens = [await storedToken(electronId), await storedToken(browserId)].filter((token): token is string => token !== null)
    expect(tokens.length).toBeGreaterThan(0)
    expect(exported.length).toBeGreaterThan(8)
    for (const bytes of [...exported, ...filesUnder(root).map((path) => readFileSync(path))]) {
      expect(bytes.includes(secret)).toBe(false)
      for (const token of tokens) expect(bytes.includes(token)).toBe(false)
    }
  })
})
