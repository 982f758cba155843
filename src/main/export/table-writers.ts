import { createWriteStream } from 'node:fs'
import { csvRecord, parseCsv } from '../../shared/export/csv'
import type { FormatWriter, WriterPaths } from './format-writer'
import { OutputFile } from './output-file'
import { unreadablePage } from './page-error'
import { TableSpool, type Cell } from './table-spool'
import { zipBoundsProblem } from './zip-bounds'

/** A workbook page of 100 rows is tens of kilobytes; one that unpacks to more than this is refused unread. */
const MAX_XLSX_PAGE_UNPACKED = 8 * 1024 * 1024

/** Excel, given a UTF-8 file without this mark, reads it in the system's code page ("SÃ£o Paulo"); other readers skip it. */
const UTF8_BOM = '\uFEFF'

/**
 * CSV: one header (the grid's columns, or the union of the pages' columns
 * in first-seen order, named for a reader), then every page's rows moved
 * under it, RFC 4180, UTF-8.
 */
export class CsvWriter implements FormatWriter {
  private constructor(
    private readonly spool: TableSpool,
    private readonly path: string,
  ) {}

  static async open(paths: WriterPaths, columns: readonly string[] | null): Promise<CsvWriter> {
    return new CsvWriter(await TableSpool.open(paths.spool, columns), paths.file)
  }

  private out: OutputFile | null = null

  get bytes(): number {
    return this.out?.bytes ?? this.spool.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    let records: string[][]
    try {
      records = parseCsv(body.toString('utf8'))
    } catch (error) {
      throw unreadablePage('csv', error instanceof Error ? error.message : String(error))
    }
    const [header = [], ...rows] = records
    const kept = rows.slice(0, asked)
    await this.spool.add(header, kept)
    return kept.length
  }

  async finish(signal: AbortSignal): Promise<void> {
    const out = await OutputFile.create(this.path)
    this.out = out
    await out.write(UTF8_BOM + csvRecord(this.spool.header()))
    for await (const rows of this.spool.rows('', signal)) {
      let text = ''
      for (const row of rows) text += csvRecord(row as string[])
      await out.write(text)
    }
    await this.spool.close()
    await out.finish()
  }

  async abandon(): Promise<void> {
    await this.spool.close().catch(() => undefined)
    await this.out?.close()
  }
}

/**
 * XLSX. A workbook is a zip archive, so pages cannot be joined as bytes:
 * each page is asked as xlsx (so a server that refuses xlsx says so, and
 * numbers stay numbers, as the server typed them), its sheet is read, and
 * one workbook is written at the end with the columns CSV would have.
 * Even a single page is rewritten, not copied: the file then holds values
 * only, never a formula or anything else a server's workbook might carry.
 */
export class XlsxWriter implements FormatWriter {
  private stream: ReturnType<typeof createWriteStream> | null = null

  private constructor(
    private readonly spool: TableSpool,
    private readonly path: string,
  ) {}

  static async open(paths: WriterPaths, columns: readonly string[] | null): Promise<XlsxWriter> {
    return new XlsxWriter(await TableSpool.open(paths.spool, columns), paths.file)
  }

  get bytes(): number {
    return this.stream?.bytesWritten ?? this.spool.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    const problem = zipBoundsProblem(body, MAX_XLSX_PAGE_UNPACKED)
    if (problem) throw unreadablePage('xlsx', `${problem}.`)
    const workbook = new (await excel()).Workbook()
    try {
      // exceljs declares its own Buffer type (an ArrayBuffer), which a Node Buffer does not match by name only.
      await workbook.xlsx.load(body as unknown as Parameters<typeof workbook.xlsx.load>[0])
    } catch {
      throw unreadablePage('xlsx', 'it is not a workbook that can be opened.')
    }
    const sheet = workbook.getWorksheet('results') ?? workbook.worksheets[0]
    if (!sheet) throw unreadablePage('xlsx', 'the workbook has no sheet.')
    const records: Cell[][] = []
    sheet.eachRow({ includeEmpty: false }, (row) => {
      // row.values is 1-based and sparse: Array.from turns its holes into empty cells.
      records.push(Array.from((row.values as unknown[]).slice(1), cellValue))
    })
    const [header = [], ...rows] = records
    const kept = rows.slice(0, asked)
    await this.spool.add(header.map((name) => (name === null ? '' : String(name))), kept)
    return kept.length
  }

  async finish(signal: AbortSignal): Promise<void> {
    const stream = createWriteStream(this.path, { flags: 'wx' })
    this.stream = stream
    const workbook = new (await excel()).stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
    const sheet = workbook.addWorksheet('results')
    const header = sheet.addRow(this.spool.header())
    header.font = { bold: true }
    header.commit()
    for await (const rows of this.spool.rows(null, signal)) {
      for (const row of rows) sheet.addRow(row).commit()
    }
    sheet.commit()
    await workbook.commit()
    await this.spool.close()
  }

  async abandon(): Promise<void> {
    await this.spool.close().catch(() => undefined)
    const stream = this.stream
    if (stream && !stream.closed) await new Promise<void>((resolve) => stream.destroy().once('close', () => resolve()))
  }
}

/** exceljs, loaded by the first xlsx export only: it is most of what a writer thread would load at its start. */
async function excel(): Promise<typeof import('exceljs')> {
  const loaded = (await import('exceljs')) as typeof import('exceljs') & { default?: typeof import('exceljs') }
  return loaded.default ?? loaded
}

/** A cell as a plain value: a formula gives its last result, rich text its text, a link its text, a date its ISO form. */
function cellValue(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: { text?: unknown }[]; text?: unknown; error?: unknown }
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((part) => String(part.text ?? '')).join('')
    if ('formula' in v || 'sharedFormula' in v) return v.result === undefined ? null : cellValue(v.result)
    if ('text' in v) return cellValue(v.text)
    if ('error' in v) return String(v.error)
  }
  return String(value)
}
