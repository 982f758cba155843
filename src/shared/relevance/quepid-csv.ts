import { CsvError, csvRecord, parseCsvLines, type CsvLine } from '../export/csv'
import { ExplorerError } from '../ipc/errors'
import { checkItem, short, unguarded, type Importer } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'
import { ratersOf } from './raters'

/**
 * Quepid's CSV, written and read, the query named by its text, in the two
 * shapes Quepid writes: a case's ratings, `query,docid,rating` (what its
 * case import reads, and nothing else: it has no rater column), and a
 * book's judgements (`/api/books/ID/judgements.csv`),
 * `query,docid,<judge>,<judge>…`, a column per rater headed by the rater's
 * name, a cell empty where that rater gave no grade. Its header is also how
 * judgment-files tells a CSV file by its first line.
 */

// Writing

const QUEPID_HEADER = ['query', 'docid', 'rating'] as const

/**
 * Quepid's own export: a row a judgment, and a query with none as a row of
 * its text alone, so the set's queries travel whole. Fields go through
 * csvRecord (quoted when needed, a text a spreadsheet would run as a formula
 * prefixed with '), which reading undoes. No byte-order mark: the file is
 * for Quepid and scripts, which would read one as part of the first column's
 * name.
 */
export function quepidText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
  let out = csvRecord([...QUEPID_HEADER])
  for (const query of set.queries) {
    const judgments = byQuery.get(query.id)
    if (!judgments?.length) {
      // A record of one empty field is a blank line, which holds no record: a query with no text and no judgment is left out.
      if (query.text !== '') out += csvRecord([query.text])
      continue
    }
    for (const judgment of judgments) out += csvRecord([query.text, judgment.item, String(judgment.grade)])
  }
  return out
}

/**
 * Every rater's grades, as Quepid's book export writes them: a column per
 * rater (the set's raters who graded anything, in its order), a row per
 * query and item (in the order the set first holds them), a cell empty where
 * that rater gave no grade; a query with no judgment a row of its text
 * alone, as in the case's shape. A set with no judgment has no rater to head
 * a column: it is written in the case's shape.
 */
export function quepidRatersText(set: QuerySet): string {
  const graded = new Set(set.judgments.map((judgment) => judgment.rater))
  const raters = ratersOf(set)
    .map((rater) => rater.name)
    .filter((name) => graded.has(name))
  if (raters.length === 0) return quepidText(set, new Map())
  for (const name of raters) {
    const key = columnKey(name)
    if (key === 'query' || key === 'docid' || key === 'rating' || name !== name.trim()) {
      throw new ExplorerError(
        'validation',
        `The rater "${name}" cannot head a column of Quepid CSV: ${name !== name.trim() ? 'a header is read without its surrounding spaces' : `a reader takes "${name}" for Quepid's own column ${key}`}. Export one grade per item instead (the aggregate, or one rater's).`,
      )
    }
  }
  const column = new Map(raters.map((name, index) => [name, index]))
  const rows = new Map<string, Map<string, (number | null)[]>>()
  for (const judgment of set.judgments) {
    let items = rows.get(judgment.query)
    if (!items) rows.set(judgment.query, (items = new Map()))
    let cells = items.get(judgment.item)
    if (!cells) items.set(judgment.item, (cells = raters.map(() => null)))
    cells[column.get(judgment.rater)!] = judgment.grade
  }
  let out = csvRecord(['query', 'docid', ...raters])
  for (const query of set.queries) {
    const items = rows.get(query.id)
    if (!items) {
      if (query.text !== '') out += csvRecord([query.text])
      continue
    }
    for (const [item, cells] of items) out += csvRecord([query.text, item, ...cells.map((grade) => (grade === null ? '' : String(grade)))])
  }
  return out
}

// Reading

/** A header name as compared: in lower case, spaces and underscores dropped, so `Doc ID` and `doc_id` are `docid`. */
function columnKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_]+/g, '')
}

/**
 * Where the header puts Quepid's columns. With no `rating` column, the
 * others (past query and docid) are raters' (a book's judgements); with
 * one, they are read past. Missing: what neither shape finds.
 */
export function headerColumns(names: readonly string[]): { query: number; docid: number; rating: number; raters: number[]; missing: string[] } {
  const keys = names.map(columnKey)
  const at = (name: string) => keys.indexOf(name)
  const columns = { query: at('query'), docid: at('docid'), rating: at('rating') }
  const raters = columns.rating >= 0 ? [] : names.map((_, index) => index).filter((index) => index !== columns.query && index !== columns.docid)
  const missing = QUEPID_HEADER.filter((name) => columns[name] < 0 && !(name === 'rating' && raters.length > 0))
  return { ...columns, raters, missing }
}

/**
 * Quepid's CSV: a header naming `query`, `docid` and `rating` in any order
 * (other columns are read past), then a row a grade, by the file's rater;
 * or a header naming `query`, `docid` and a column per rater, no `rating`
 * (a book's judgements), then a row per query and docid, each cell that
 * rater's grade or empty. A row of a query's text alone (Quepid writes one
 * for a query with no rating) names the query and judges nothing. A docid's
 * and a grade's surrounding spaces are dropped, as hand-written files have
 * them after the commas; so are a rater's name's, with Quepid's guard (a
 * space before a name starting - = + or @) or the app's (').
 */
export function readQuepid(text: string, reader: Importer): string | null {
  let records: CsvLine[]
  try {
    records = parseCsvLines(text)
  } catch (error) {
    if (error instanceof CsvError) return `line ${error.line}: a quoted field starts here and never closes`
    throw error
  }
  const [header, ...rows] = records
  if (!header) return 'The file is empty: it holds no judgments.'
  const columns = headerColumns(header.fields)
  if (columns.missing.length > 0) {
    const named = header.fields.map((name) => `"${short(name)}"`).join(', ')
    const semicolons = header.fields.length === 1 && header.fields[0]!.includes(';') ? '; its columns are separated by semicolons, where Quepid CSV uses commas' : ''
    return `line ${header.line}: a Quepid CSV file starts with a header naming its columns query, docid and rating (in any order), or query, docid and a column per rater; this one names ${named}${semicolons}`
  }
  // The raters a book's columns name, by column; null where the name is refused (a problem said).
  const raters = new Map<number, string | null>()
  const named = new Map<string, number>()
  for (const index of columns.raters) {
    const where = `line ${header.line}, column ${index + 1}`
    const name = unguarded(header.fields[index]!.trim()).trim()
    const again = named.get(name)
    if (again !== undefined) {
      reader.problem(where, `names the rater "${short(name)}" again (column ${again + 1} does); a rater has one column`)
      raters.set(index, null)
    } else raters.set(index, reader.raterName(where, name) ? name : null)
    named.set(name, index)
  }
  const width = header.fields.length
  const names = header.fields.join(',')
  for (const row of rows) {
    if (reader.full) break
    const where = `line ${row.line}`
    const fields = row.fields
    if (fields.every((value) => value.trim() === '')) continue
    const queryText = fields[columns.query] ?? ''
    const docid = (fields[columns.docid] ?? '').trim()
    if (columns.rating < 0) {
      readRaterCells(reader, where, fields, width, names, queryText, docid, raters)
      continue
    }
    const rating = (fields[columns.rating] ?? '').trim()
    const queryOnly = docid === '' && rating === ''
    if (fields.length > width || (fields.length < width && !queryOnly)) {
      reader.problem(where, `expected ${width} fields (${short(names)}), found ${fields.length}`)
      continue
    }
    if (!queryOnly && docid === '') {
      reader.problem(where, 'has a rating but no docid')
      continue
    }
    if (!queryOnly && rating === '') {
      reader.problem(where, `has no rating for the docid "${short(docid)}"`)
      continue
    }
    const grade = queryOnly ? null : reader.grade(where, rating)
    const item = unguarded(docid)
    const itemOk = queryOnly || checkItem(reader, where, item)
    const query = reader.queryByText(where, queryText)
    if (queryOnly || query === null || grade === null || !itemOk) continue
    reader.judge(where, query, item, grade)
  }
  return null
}

/** A row of a book's judgements: each rater's cell that holds a grade, as that rater's. */
function readRaterCells(
  reader: Importer,
  where: string,
  fields: readonly string[],
  width: number,
  names: string,
  queryText: string,
  docid: string,
  raters: ReadonlyMap<number, string | null>,
): void {
  const cells = [...raters].map(([index, rater]) => ({ index, rater, text: (fields[index] ?? '').trim() }))
  const graded = cells.filter((cell) => cell.text !== '')
  const queryOnly = docid === '' && graded.length === 0
  if (fields.length > width || (fields.length < width && !queryOnly)) {
    reader.problem(where, `expected ${width} fields (${short(names)}), found ${fields.length}`)
    return
  }
  if (!queryOnly && docid === '') {
    reader.problem(where, 'has grades but no docid')
    return
  }
  if (!queryOnly && graded.length === 0) {
    reader.problem(where, `has no grade from any rater for the docid "${short(docid)}"`)
    return
  }
  const grades = graded.map((cell) => ({ rater: cell.rater, grade: reader.grade(`${where}, column ${cell.index + 1}`, cell.text) }))
  const item = unguarded(docid)
  const itemOk = queryOnly || checkItem(reader, where, item)
  const query = reader.queryByText(where, queryText)
  if (queryOnly || query === null || !itemOk) return
  for (const { rater, grade } of grades) if (rater !== null && grade !== null) reader.judge(where, query, item, grade, rater)
}
