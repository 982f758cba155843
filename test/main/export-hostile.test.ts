import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import type { ConnectionView, ExportStatus } from '../../src/shared/ipc/contract'
import { spawnGroup, stopGroup } from '../fixtures/process-group'
import { directoryEntry, localHeader } from '../fixtures/zip'
import { call, keychainMissing, openCore, search, startServer, type TestServer } from './support'

/**
 * Exports of a hostile server's answers, over real HTTP on 127.0.0.1: no
 * answer, however shaped, holds the main process (app:info answers all
 * along), and what reaches the file cannot act when it is opened.
 */

const missing = await keychainMissing()
const MiB = 1024 * 1024
/** An app:info slower than this means the main process was held; far above what a loaded machine takes. */
const HELD_MS = 2_000

/** A csv page of `header` and `rows`, quoted as RFC 4180 says. */
function csvPage(header: string[], rows: string[][]): string {
  const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
  return [header, ...rows].map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n'
}

/** Hostile cells: formulas behind what a spreadsheet trims or folds, and a number that must stay a number. */
const FORMULAS = ['=4+4', ' =1+1', '\n=2+2', '\uff1d3+3', '@SUM(1)', '-2+3', '\t=5+5']

/**
 * A real workbook with two entries added that its end record does not count:
 * a reader that trusts the count checks three files, the zip reader inflates
 * five, two of them 64 MiB of zeros each.
 */
async function uncountedBomb(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  workbook.addWorksheet('results').addRow(['rank', 'probability', '1.id'])
  const zip = Buffer.from(await workbook.xlsx.writeBuffer())
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const directorySize = zip.readUInt32LE(end + 12)
  const directoryAt = zip.readUInt32LE(end + 16)
  const bomb = deflateRawSync(Buffer.alloc(64 * MiB))
  const locals: Buffer[] = []
  const entries: Buffer[] = []
  let at = directoryAt
  for (const name of ['xl/media/a.bin', 'xl/media/b.bin']) {
    const file = { name: Buffer.from(name), compressed: bomb.length, size: 64 * MiB }
    const local = localHeader(file)
    locals.push(local, file.name, bomb)
    entries.push(directoryEntry(file, at), file.name)
    at += local.length + file.name.length + bomb.length
  }
  const added = Buffer.concat(entries)
  const record = Buffer.from(zip.subarray(end, end + 22))
  // The count stays the workbook's own; size and offset cover every entry, as a reader expects of them.
  record.writeUInt32LE(directorySize + added.length, 12)
  record.writeUInt32LE(at, 16)
  return Buffer.concat([zip.subarray(0, directoryAt), ...locals, zip.subarray(directoryAt, directoryAt + directorySize), added, record])
}

const HOSTILE_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="http://203.0.113.9/x.xsl"?>\n' +
  '<results xmlns:xi="http://www.w3.org/2001/XInclude" offset="0" count="2">\n  <type>OBJ</type>\n' +
  '  <item rank="1" probability="1"><?php system("x") ?><column index="1"><object id="a"><class>city</class>' +
  '<xi:include href="file:///etc/passwd" parse="text"/></object></column></item>\n</results>\n'

describe.skipIf(missing)('exports of a hostile server', () => {
  let server: TestServer
  let root: string
  let core: AppCore
  let id: string
  let bomb: Buffer
  let nextSave = ''

  const dialogs: FileDialogs = { chooseOpen: async () => null, chooseSave: async () => nextSave }

  beforeAll(async () => {
    bomb = await uncountedBomb()
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      const text = /\/p\/query\/([^/]+)/.exec(decodeURIComponent(url.pathname))?.[1] ?? ''
      const format = url.searchParams.get('format')
      if (format === 'xlsx') {
        res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
        return res.end(bomb)
      }
      if (format === 'xml') {
        res.writeHead(200, { 'content-type': 'application/xml' })
        return res.end(HOSTILE_XML)
      }
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
      if (text === 'digits') return res.end(csvPage(['rank', 'probability', '1.id', '1.name'], [['1', '1', 'a', `+${'1'.repeat(100_000)}x`]]))
      if (text === 'wide') {
        // Three tuple columns in turn: each new column joins its own group, far from the end.
        const header = ['rank', 'probability', ...Array.from({ length: 60_000 }, (_, i) => `${(i % 3) + 1}.a${i}`)]
        return res.end(csvPage(header, [header.map((_, i) => String(i))]))
      }
      return res.end(csvPage(['rank', 'probability', '1.id', ...FORMULAS.map((_, i) => `1.f${i}`), '1.n'], [['1', '1', 'a', ...FORMULAS, '-28']]))
    })
    root = mkdtempSync(join(tmpdir(), 'qe-export-hostile-'))
    mkdirSync(join(root, 'files'))
    core = await openCore(join(root, 'data'), { host: 'electron', dialogs, echoLog: false })
    id = (await call<ConnectionView>(core, 'connections:save', { name: 'Hostile', authUrl: '', queryUrl: `${server.origin}/query`, workspace: 'world', api: 'places', clientId: '' })).id
  })
  afterAll(async () => {
    await core?.close()
    await server?.close()
    rmSync(root, { recursive: true, force: true })
  })

  /**
   * Exports the search for `text` as `format` to a file of that name, asking app:info again and again
   * while it runs: the finished status, the file if one was written, and the slowest round of asking.
   */
  async function exportWhileProbing(text: string, format: string): Promise<{ status: ExportStatus; bytes: Buffer | null; slowestInfoMs: number }> {
    nextSave = join(root, 'files', `${text}.${format}`)
    const started = await call<ExportStatus>(core, 'export:start', { connectionId: id, request: search(text), format, rows: 100 })
    let status = started
    let slowestInfoMs = 0
    while (status.state === 'running') {
      // A round takes as long as the main event loop is held anywhere in it: an app:info, and a turn of the loop.
      const asked = performance.now()
      await call(core, 'app:info', {})
      status = await call<ExportStatus>(core, 'export:status', { runId: started.runId })
      // Lets the event loop take the export's I/O: answers that settle at once would otherwise starve it.
      await new Promise((resolve) => setImmediate(resolve))
      slowestInfoMs = Math.max(slowestInfoMs, performance.now() - asked)
    }
    return { status, bytes: existsSync(nextSave) ? readFileSync(nextSave) : null, slowestInfoMs }
  }

  it('a cell of a sign, 100,000 digits and a letter: exported, neutralized, and the main process is never held', async () => {
    // The number test backtracked quadratically on the main thread: 16 s without an answer.
    const { status, bytes, slowestInfoMs } = await exportWhileProbing('digits', 'csv')
    expect(status.state, status.message ?? '').toBe('done')
    expect(bytes!.toString('utf8')).toContain(`,'+${'1'.repeat(100_000)}x\r\n`)
    expect(slowestInfoMs).toBeLessThan(HELD_MS)
  })

  it('a page of 60,000 columns is refused with the bound, and the main process is never held', async () => {
    const { status, bytes, slowestInfoMs } = await exportWhileProbing('wide', 'csv')
    expect(status.state).toBe('failed')
    expect(status.message).toBe("The export was stopped: its pages have 60,002 columns together, more than the 16,384 an export takes (a spreadsheet's widest).")
    expect(bytes).toBeNull()
    expect(slowestInfoMs).toBeLessThan(HELD_MS)
  })

  it('an xlsx page with entries its end record does not count is refused before it is unpacked', async () => {
    // Trusting the count passed it: the zip reader then inflated 128 MiB and the export said "done".
    const { status, bytes } = await exportWhileProbing('bomb', 'xlsx')
    expect(status.state).toBe('failed')
    expect(status.message).toMatch(/^The service's xlsx answer cannot be read: it unpacks to more than 8 MiB\.$/)
    expect(bytes).toBeNull()
  })

  it('an xml page loses its processing instructions and XInclude, and stays one well-formed document', async () => {
    const { status, bytes } = await exportWhileProbing('xml', 'xml')
    expect(status.state, status.message ?? '').toBe('done')
    const xml = bytes!.toString('utf8')
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<results offset="0" count="100">/)
    expect(xml).not.toMatch(/xml-stylesheet|<\?php|XInclude|xi:include|passwd/)
    expect(xml).toContain('<object id="a"><class>city</class></object>')
  })

  const soffice = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((path) => existsSync(path))
  if (!soffice && process.env.CI) throw new Error('CI needs LibreOffice (scripts/setup.sh installs libreoffice-calc-nogui) to open exported CSV as a spreadsheet does')

  it.skipIf(!soffice)('CSV cells a spreadsheet would run are text when LibreOffice opens the file; numbers stay numbers', async () => {
    const { status, bytes } = await exportWhileProbing('formulas', 'csv')
    expect(status.state, status.message ?? '').toBe('done')
    const csv = join(root, 'files', 'opened.csv')
    writeFileSync(csv, bytes!)
    // LibreOffice, headless, with a profile of its own, reads the CSV as a user's double-click would and saves it as a workbook.
    const profile = `file://${join(root, 'lo-profile')}`
    const converter = spawnGroup(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--infilter=CSV:44,34,76,1', '--convert-to', 'xlsx', '--outdir', join(root, 'files'), csv], { stdio: 'ignore' })
    try {
      await new Promise((resolve) => converter.once('exit', resolve))
    } finally {
      await stopGroup(converter, 'SIGKILL')
    }
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(join(root, 'files', 'opened.xlsx'))
    const row = workbook.worksheets[0]!.getRow(2)
    const cells = Array.from({ length: FORMULAS.length + 4 }, (_, i) => row.getCell(i + 1))
    for (const cell of cells) expect(cell.formula, `cell ${cell.address}`).toBeUndefined()
    expect(cells.slice(3, 3 + FORMULAS.length).map((cell) => cell.value)).toEqual(FORMULAS.map((formula) => `'${formula}`))
    expect(cells.at(-1)!.value).toBe(-28)
  })
})

