/**
 * CSV as RFC 4180 writes it (the service's csv pages, and the file an export
 * writes): fields separated by commas, records by CRLF, a field quoted when
 * it holds a comma, a quote or a line break, a quote inside doubled. One
 * writer for both: the service's answers use the quoting alone
 * (csvQuote, csvPlainRecord), the app's files add the formula guard
 * (csvField, csvRecord).
 */

export type CsvRow = string[]

/** A record as read, with the line it starts on (a quoted field may span lines). */
export interface CsvLine {
  line: number
  fields: CsvRow
}

/** A quoted field that never closes: no reading of it can be right. */
export class CsvError extends Error {
  constructor(readonly line: number) {
    super(`A quoted field that starts on line ${line} never closes.`)
    this.name = 'CsvError'
  }
}

/**
 * Reads CSV text into records. Tolerant where real files differ (LF or CR
 * line ends, a byte-order mark, no line end after the last record, a stray
 * quote inside an unquoted field kept as it is); a quoted field that never
 * closes is an error (CsvError). Blank lines hold no record.
 */
export function parseCsv(text: string): CsvRow[] {
  return parseCsvLines(text).map((record) => record.fields)
}

/** parseCsv, each record with the line it starts on, for messages that name it. */
export function parseCsvLines(text: string): CsvLine[] {
  const records: CsvLine[] = []
  const n = text.length
  let line = 1
  let counted = 0
  // Lines up to `at`, counted once: CRLF, LF and a lone CR each end a line.
  const lineAt = (at: number) => {
    for (; counted < at; counted++) {
      const c = text.charCodeAt(counted)
      if (c === 10 || (c === 13 && text.charCodeAt(counted + 1) !== 10)) line++
    }
    return line
  }
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  while (i < n) {
    const first = text.charCodeAt(i)
    if (first === 13 || first === 10) {
      i++
      continue
    }
    const start = lineAt(i)
    const fields: CsvRow = []
    for (;;) {
      let value: string
      if (text.charCodeAt(i) === 34 /* " */) {
        const opened = lineAt(i)
        value = ''
        let from = i + 1
        for (;;) {
          const quote = text.indexOf('"', from)
          if (quote < 0) throw new CsvError(opened)
          value += text.slice(from, quote)
          if (text.charCodeAt(quote + 1) !== 34) {
            i = quote + 1
            break
          }
          value += '"'
          from = quote + 2
        }
        // Anything between the closing quote and the next separator stays with the field (lenient).
        const end = nextSeparator(text, i)
        value += text.slice(i, end)
        i = end
      } else {
        const end = nextSeparator(text, i)
        value = text.slice(i, end)
        i = end
      }
      fields.push(value)
      if (text.charCodeAt(i) !== 44 /* , */) break
      i++
    }
    if (text.charCodeAt(i) === 13) i++
    if (text.charCodeAt(i) === 10) i++
    records.push({ line: start, fields })
  }
  return records
}

function nextSeparator(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 44 || c === 13 || c === 10) return i
  }
  return text.length
}

const NEEDS_QUOTES = /[",\r\n]/
/**
 * What a spreadsheet may take for the start of a formula (or DDE): `=`, `+`,
 * `-`, `@` and their fullwidth forms, after any white space or line break a
 * spreadsheet may trim first (` =1+1`, `\n=1+1`, `＝1+1`), or a tab or
 * carriage return first of all (OWASP's list). LibreOffice 7.4 reads those
 * padded and fullwidth forms as text; other readers and versions need not.
 */
const FORMULA_START = /^[\s\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/
/** A plain number, which is safe as it is. Each part matches in one way only, so the test is linear in the cell's length. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * One field as RFC 4180 writes it, and nothing more: quoted when it holds a
 * comma, a quote or a line break, a quote inside doubled. The service's csv
 * answers are written this way, as the real service writes them.
 */
export function csvQuote(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * One field of a file the app writes: as csvQuote, but a text that a
 * spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`,
 * ` =1+1`, `＝1+1`) gets a leading apostrophe first, as OWASP advises for CSV
 * files built from others' data: the server's answer is untrusted, and
 * opening an export must not run anything. Numbers, negative ones included,
 * are written as they are.
 */
export function csvField(value: string): string {
  return csvQuote(FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value)
}

function record(cells: readonly string[], field: (value: string) => string): string {
  let line = ''
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + field(cells[i]!)
  return `${line}\r\n`
}

/** One record of a file the app writes (csvField: formula guard, then quoting), with its CRLF. */
export function csvRecord(cells: readonly string[]): string {
  return record(cells, csvField)
}

/** One record of plain RFC 4180 fields (csvQuote: no formula guard), with its CRLF: the service's answers. */
export function csvPlainRecord(cells: readonly string[]): string {
  return record(cells, csvQuote)
}
