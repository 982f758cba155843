import { open, type FileHandle } from 'node:fs/promises'
import { alignment, columnKeys, columnName, mergeColumns, realign, tooManyColumns } from '../../shared/export/columns'
import { readableHeaders, writtenColumns } from '../../shared/export/headers'
import { ExplorerError } from '../../shared/ipc/errors'

/** A cell of a csv or xlsx page, as read: text (csv), or the workbook's typed value (xlsx). */
export type Cell = string | number | boolean | null

/**
 * The pages of a csv or xlsx export, kept on disk until the last one is in.
 * The file's header comes first but is the union of every page's columns
 * (SERVICE-CONTRACT: a page names the attributes seen on it), so it is known
 * only at the end; holding 100,000 rows in memory until then is what this
 * avoids. Each page's rows go to the spool file as one JSON line; at the end
 * they are read back a page at a time and moved under the columns written:
 * the grid's (the Columns choice), or the whole union.
 */
export class TableSpool {
  private union: string[] = []
  private readonly pages: { keys: string[]; at: number; length: number }[] = []
  private size = 0

  private constructor(
    private readonly handle: FileHandle,
    /** The grid's columns by key (`1.name`), in order; null: every column the pages hold. */
    private readonly chosen: readonly string[] | null,
  ) {}

  static async open(path: string, chosen: readonly string[] | null = null): Promise<TableSpool> {
    return new TableSpool(await open(path, 'wx+', 0o600), chosen)
  }

  /** Bytes kept so far. */
  get bytes(): number {
    return this.size
  }

  async add(header: readonly string[], rows: readonly Cell[][]): Promise<void> {
    const keys = columnKeys(header)
    const union = mergeColumns(this.union, keys)
    const tooMany = tooManyColumns(union.length)
    if (tooMany) throw new ExplorerError('too_large', `The export was stopped: ${tooMany}`)
    this.union = union
    const line = Buffer.from(`${JSON.stringify(rows)}\n`, 'utf8')
    await this.handle.write(line, 0, line.length, this.size)
    this.pages.push({ keys, at: this.size, length: line.length })
    this.size += line.length
  }

  private written(): string[] {
    return writtenColumns(this.union, this.chosen)
  }

  /** The header of the file: the columns written, named for a reader (`name`, not `1.name`: shared/export/headers.ts). */
  header(): string[] {
    return readableHeaders(this.written().map(columnName))
  }

  /** Each page's rows, under the header's columns; `empty` where a page had no such column. */
  async *rows<T extends Cell>(empty: T, signal?: AbortSignal): AsyncGenerator<Cell[][]> {
    const written = this.written()
    for (const page of this.pages) {
      signal?.throwIfAborted()
      const buffer = Buffer.alloc(page.length)
      await this.handle.read(buffer, 0, page.length, page.at)
      const rows = JSON.parse(buffer.toString('utf8')) as Cell[][]
      const map = alignment(written, page.keys)
      yield rows.map((row) => realign<Cell>(row, map, empty))
    }
  }

  close(): Promise<void> {
    return this.handle.close()
  }
}
