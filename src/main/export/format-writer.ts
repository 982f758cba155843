import type { ExportFormat } from '../../shared/ipc/contract'
import { ntriplesStatements } from '../../shared/export/ntriples'
import { readXmlPage, xmlHead, xmlRows, xmlTail, XmlPageError, type XmlPage } from '../../shared/export/xml'
import { parseJson } from '../http/response-body'
import { resultsShapeProblem } from '../http/results-shape'
import { OutputFile } from './output-file'
import { unreadablePage } from './page-error'
import { CsvWriter, XlsxWriter } from './table-writers'
import type { FormatWriter, WriterPaths } from './writer-interface'

/** `columns`: the grid's columns for csv and xlsx (null: all); the other formats write items whole. */
export async function createWriter(format: ExportFormat, paths: WriterPaths, rowsWanted: number, columns: readonly string[] | null = null): Promise<FormatWriter> {
  switch (format) {
    case 'json':
      return new JsonWriter(await OutputFile.create(paths.file))
    case 'xml':
      return new XmlWriter(await OutputFile.create(paths.file), rowsWanted)
    case 'rdf':
      return new NTriplesWriter(await OutputFile.create(paths.file))
    case 'csv':
      return CsvWriter.open(paths, columns)
    case 'xlsx':
      return XlsxWriter.open(paths, columns)
  }
}

/** One JSON array of the items, one item a line, written page by page. */
class JsonWriter implements FormatWriter {
  private count = 0

  constructor(private readonly out: OutputFile) {}

  get bytes(): number {
    return this.out.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    const page = parseJson(body, 'json answer', false)
    const problem = resultsShapeProblem(page)
    if (problem) throw unreadablePage('json', `it is not a page of results (${problem}).`)
    const items = (page as { items: unknown[] }).items.slice(0, asked)
    let text = ''
    for (const item of items) text += (this.count++ === 0 ? '[\n' : ',\n') + JSON.stringify(item)
    await this.out.write(text)
    return items.length
  }

  async finish(): Promise<void> {
    await this.out.write(this.count === 0 ? '[]\n' : '\n]\n')
    await this.out.finish()
  }

  abandon(): Promise<void> {
    return this.out.close()
  }
}

/** One document: the first page's declaration, root and `<type>` list, every page's `<item>`s, the root's end. */
class XmlWriter implements FormatWriter {
  private first: XmlPage | null = null

  constructor(
    private readonly out: OutputFile,
    private readonly rowsWanted: number,
  ) {}

  get bytes(): number {
    return this.out.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    let page: XmlPage
    try {
      page = readXmlPage(body.toString('utf8'))
    } catch (error) {
      if (error instanceof XmlPageError) throw unreadablePage('xml', error.message)
      throw error
    }
    if (this.first && page.rootName !== this.first.rootName) {
      throw unreadablePage('xml', `one page's root element is <${page.rootName}>, another's <${this.first.rootName}>.`)
    }
    const rows = xmlRows(page).slice(0, asked)
    let text = ''
    if (!this.first) {
      this.first = page
      text += xmlHead(page, this.rowsWanted)
    }
    for (const row of rows) text += `  ${row}\n`
    await this.out.write(text)
    return rows.length
  }

  async finish(): Promise<void> {
    if (this.first) await this.out.write(xmlTail(this.first))
    await this.out.finish()
  }

  abandon(): Promise<void> {
    return this.out.close()
  }
}

/** N-Triples: the pages' statements one after another. */
class NTriplesWriter implements FormatWriter {
  constructor(private readonly out: OutputFile) {}

  get bytes(): number {
    return this.out.bytes
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    const statements = ntriplesStatements(body.toString('utf8')).slice(0, asked)
    await this.out.write(statements.map((line) => `${line}\n`).join(''))
    return statements.length
  }

  async finish(): Promise<void> {
    await this.out.finish()
  }

  abandon(): Promise<void> {
    return this.out.close()
  }
}
