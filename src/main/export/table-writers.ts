import { csvRecord, parseCsv } from '../../shared/export/csv'
import type { FormatWriter, WriterPaths } from './writer-interface'
import { OutputFile } from './output-file'
import { unreadablePage } from './page-error'
import { TableSpool } from './table-spool'
import { writeWorkbook } from './xlsx-file'
import { readXlsxPage } from './xlsx-page'

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
 * numbers stay numbers, as the server typed them), its sheet is read
 * (xlsx-page.ts), and one workbook is written at the end with the columns
 * CSV would have (xlsx-file.ts). Even a single page is rewritten, not
 * copied: the file then holds values only, never a formula or anything else
 * a server's workbook might carry.
 */
export class XlsxWriter implements FormatWriter {
  private out: OutputFile | null = null

  private constructor(
    private readonly spool: TableSpool,
    private readonly path: string,
  ) {}

  static async open(paths: WriterPaths, columns: readonly string[] | null): Promise<XlsxWriter> {
    return new XlsxWriter(await TableSpool.open(paths.spool, columns), paths.file)
  }

  get bytes(): number {
    return this.out?.bytes ?? this.spool.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    const [header = [], ...rows] = await readXlsxPage(body, MAX_XLSX_PAGE_UNPACKED)
    const kept = rows.slice(0, asked)
    await this.spool.add(header.map((name) => (name === null ? '' : String(name))), kept)
    return kept.length
  }

  async finish(signal: AbortSignal): Promise<void> {
    const out = await OutputFile.create(this.path)
    this.out = out
    await writeWorkbook(out, this.spool.header(), this.spool.rows(null, signal))
    await this.spool.close()
  }

  async abandon(): Promise<void> {
    await this.spool.close().catch(() => undefined)
    await this.out?.close()
  }
}
