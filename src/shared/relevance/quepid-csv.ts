import { CsvError, csvRecord, parseCsvLines, type CsvLine } from '../export/csv'
import { checkItem, short, unguarded, type Importer } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'

/**
 * Quepid's ratings CSV, `query,docid,rating`, written and read: the format
 * Quepid exports and imports, the query named by its text. Its header is
 * also how judgment-files tells a CSV file by its first line.
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

// Reading

/** Header names as compared: in lower case, spaces and underscores dropped, so `Doc ID` and `doc_id` are `docid`. */
export function headerColumns(names: readonly string[]): { query: number; docid: number; rating: number; missing: string[] } {
  const keys = names.map((name) => name.trim().toLowerCase().replace(/[\s_]+/g, ''))
  const at = (name: string) => keys.indexOf(name)
  const columns = { query: at('query'), docid: at('docid'), rating: at('rating') }
  const missing = QUEPID_HEADER.filter((name) => columns[name] < 0)
  return { ...columns, missing }
}

/**
 * Quepid's CSV: a header naming `query`, `docid` and `rating` in any order
 * (other columns are read past), then a row a judgment. A row of a query's
 * text alone (Quepid writes one for a query with no rating) names the query
 * and judges nothing. A docid's and a rating's surrounding spaces are
 * dropped, as hand-written files have them after the commas.
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
    return `line ${header.line}: a Quepid CSV file starts with a header naming its columns query, docid and rating (in any order); this one names ${named}${semicolons}`
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
