import { formatBytes } from '../byte-size'
import { CsvError, csvField, csvQuote, csvRecord, parseCsvLines, type CsvLine } from '../export/csv'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth'
import { formatPath, type Path } from '../query/request-json'
import {
  ItemIdSchema,
  MAX_SET_JUDGMENTS,
  MAX_SET_QUERIES,
  scaleOf,
  scaleText,
  SetQueryIdSchema,
  SetQuerySchema,
  type Judgment,
  type QuerySet,
  type SetQuery,
} from './query-set'

/**
 * The files a set's judgments travel in to and from other tools:
 *
 * - `quepid-csv`: Quepid's ratings export and import, `query,docid,rating`,
 *   one row a judgment; the query is named by its text.
 * - `trec-qrels`: trec_eval's qrels, `qid iter docid rel`, split on white
 *   space; the query is named by its id in the set.
 * - `rre-json`: the ratings file of Sease's Rated Ranking Evaluator:
 *   `topics[].query_groups[].queries[].placeholders` (the query's text is its
 *   `$query` placeholder), each group's `relevant_documents` judging every
 *   query of the group; either of the two levels above the groups may be left
 *   out (RRE then reads the node itself as the one topic, or the one group).
 *
 * Reading is all or nothing: a file with any problem imports nothing, and
 * says which lines (or JSON paths) are wrong and why, so a person can fix
 * the file and import it again rather than guess at what got in.
 */

export const JUDGMENT_FORMATS = ['quepid-csv', 'trec-qrels', 'rre-json'] as const
export type JudgmentFormat = (typeof JUDGMENT_FORMATS)[number]

/** The most text a judgment file may hold: far above any real set (200,000 qrels lines are about 6 MiB), far below what would stall the app. */
export const MAX_JUDGMENT_FILE_BYTES = 20 * 1024 * 1024
/** Problems listed by name; the rest are counted, as a person fixes the first few and imports again. */
const MAX_PROBLEMS_SHOWN = 10

const EXTENSIONS: Record<JudgmentFormat, string> = { 'quepid-csv': 'csv', 'trec-qrels': 'qrels', 'rre-json': 'json' }

/**
 * Which format a file is in: by its extension where that says (`.csv`,
 * `.qrels`, `.json`), else by its first lines. `.txt` is what Quepid names
 * its TREC export (`case_12_trec.txt`), so a text file that reads as neither
 * CSV nor JSON is taken for qrels.
 */
export function judgmentFormatOf(fileName: string, text: string): JudgmentFormat | null {
  const dot = fileName.lastIndexOf('.')
  const extension = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''
  if (extension === 'csv') return 'quepid-csv'
  if (extension === 'qrels') return 'trec-qrels'
  if (extension === 'json') return 'rre-json'
  const sniffed = sniff(text)
  return sniffed ?? (extension === 'txt' ? 'trec-qrels' : null)
}

function sniff(text: string): JudgmentFormat | null {
  // The first few kilobytes say it; a 20 MiB file is not split into lines for that.
  const head = withoutBom(text.slice(0, 4_096)).trimStart()
  if (head.startsWith('{')) return 'rre-json'
  const first = head.split(/\r\n|\r|\n/).find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
  if (first === undefined) return null
  if (first.includes(',') && headerColumns(first.split(',')).missing.length === 0) return 'quepid-csv'
  const fields = first.trim().split(/\s+/)
  if (fields.length === 4 && /^[+-]?\d+$/.test(fields[3]!)) return 'trec-qrels'
  return null
}

/**
 * A name to offer the file under: the set's name as people wrote it ("World
 * cities.qrels"), less what a file system refuses or a file dialog shows
 * falsely: path separators and the characters Windows reserves, control
 * characters, bidirectional overrides (which can make `txt.exe` read as
 * `exe.txt`), a leading dot (a hidden file), trailing dots and spaces
 * (Windows drops them), and Windows' device names.
 */
export function judgmentFileName(format: JudgmentFormat, setName: string): string {
  let stem = setName
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
  // Long enough to read in a file dialog, far under any file system's limit; whole code points, so no half of an emoji.
  const points = [...stem]
  if (points.length > 80) stem = points.slice(0, 80).join('').replace(/[\s.]+$/, '')
  if (stem === '') stem = 'judgments'
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) stem = `${stem} judgments`
  return `${stem}.${EXTENSIONS[format]}`
}

export interface JudgmentImport {
  /** Queries the file names that the set does not have: added to the set (ids made unique: q31, q32… when the file gives none). */
  newQueries: SetQuery[]
  /** Every judgment of the file, on the set's (or the new) query ids; they replace the set's own for the same query and item. */
  judgments: Judgment[]
  /** How many of those replace a judgment the set had with another grade. */
  replaced: number
}

export type JudgmentImportResult = { ok: true; import: JudgmentImport } | { ok: false; message: string }

type ImportSet = Pick<QuerySet, 'queries' | 'judgments' | 'scale'>

/**
 * Reads a judgment file against a set: which of its queries each line names
 * (adding those the set lacks), and the grades, which must be whole numbers
 * on the set's scale. `by` is written on every judgment read (who imported
 * it, or the file's name). On any problem nothing is read: the message lists
 * up to 10 problems, one a line, each with its line number (or JSON path)
 * and the rule it breaks.
 */
export function parseJudgments(format: JudgmentFormat, text: string, set: ImportSet, by: string): JudgmentImportResult {
  const size = utf8Length(text, MAX_JUDGMENT_FILE_BYTES)
  if (size > MAX_JUDGMENT_FILE_BYTES) {
    return { ok: false, message: `The file holds more than ${formatBytes(MAX_JUDGMENT_FILE_BYTES)} of text, more than a judgment file may; split it into smaller files and import each.` }
  }
  if (text.trim() === '' || withoutBom(text).trim() === '') return { ok: false, message: 'The file is empty: it holds no judgments.' }
  const reader = importer(set, by)
  const early = format === 'quepid-csv' ? readQuepid(text, reader) : format === 'trec-qrels' ? readQrels(text, reader) : readRre(text, reader)
  if (early !== null) return { ok: false, message: early }
  return reader.finish()
}

/** The set's judgments in one of the formats. The same set gives the same text, byte for byte: queries in the set's order, each query's items in the order the set holds them. */
export function formatJudgments(format: JudgmentFormat, set: QuerySet): string {
  const byQuery = new Map<string, Judgment[]>()
  for (const judgment of set.judgments) {
    let list = byQuery.get(judgment.query)
    if (!list) byQuery.set(judgment.query, (list = []))
    list.push(judgment)
  }
  if (format === 'quepid-csv') return quepidText(set, byQuery)
  if (format === 'trec-qrels') return qrelsText(set, byQuery)
  return rreText(set, byQuery)
}

/**
 * A TREC run file: `qid Q0 docid rank score tag`, one line per item, queries in set order.
 *
 * The score is `items.length - index`, strictly decreasing within a query:
 * trec_eval does not read the rank column but sorts a run by score, breaking
 * ties by docno, so equal scores (tied probabilities, say) would be
 * reordered and the run evaluated in an order the engine never returned.
 */
export function formatRunFile(rankings: readonly { queryId: string; items: readonly string[] }[], tag: string): string {
  if (tag === '' || /\s/.test(tag)) throw new Error(`The run's tag "${tag}" cannot be written in a TREC run file: it must be one word with no white space.`)
  let out = ''
  for (const ranking of rankings) {
    if (ranking.queryId === '' || /\s/.test(ranking.queryId)) {
      throw new Error(`The query id "${ranking.queryId}" cannot be written in a TREC run file: it has white space in it (or is empty), and TREC files split their lines on white space.`)
    }
    ranking.items.forEach((item, index) => {
      if (item === '' || /\s/.test(item)) throw new Error(whiteSpaceItem(ranking.queryId, item, 'run'))
      out += `${ranking.queryId} Q0 ${item} ${index + 1} ${ranking.items.length - index} ${tag}\n`
    })
  }
  return out
}

function whiteSpaceItem(queryId: string, item: string, file: 'run' | 'qrels'): string {
  return `The item "${item}" of the query "${queryId}" cannot be written in a TREC ${file} file: it has white space in it (or is empty), and TREC files split their lines on white space.`
}

// ——— Writing ———

const QUEPID_HEADER = ['query', 'docid', 'rating'] as const

/**
 * Quepid's own export: a row a judgment, and a query with none as a row of
 * its text alone, so the set's queries travel whole. Fields go through
 * csvRecord (quoted when needed, a text a spreadsheet would run as a formula
 * prefixed with '), which reading undoes. No byte-order mark: the file is
 * for Quepid and scripts, which would read one as part of the first column's
 * name.
 */
function quepidText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
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

/** `qid 0 docid rel`, as trec_eval reads it (the iteration column is unused, 0 by custom); a query with no judgment has no line. */
function qrelsText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
  let out = ''
  for (const query of set.queries) {
    for (const judgment of byQuery.get(query.id) ?? []) {
      if (/\s/.test(judgment.item)) throw new Error(whiteSpaceItem(query.id, judgment.item, 'qrels'))
      out += `${query.id} 0 ${judgment.item} ${judgment.grade}\n`
    }
  }
  return out
}

/** A JSON value whose objects keep their keys in the order given: a Map, as a plain object would put integer-like docids ("10", "2") first, in numeric order. */
type JsonOut = string | number | readonly JsonOut[] | ReadonlyMap<string, JsonOut>

function jsonText(value: JsonOut, indent = ''): string {
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value)
  const inner = `${indent}  `
  if (value instanceof Map) {
    if (value.size === 0) return '{}'
    const members = [...(value as ReadonlyMap<string, JsonOut>)].map(([key, member]) => `${inner}${JSON.stringify(key)}: ${jsonText(member, inner)}`)
    return `{\n${members.join(',\n')}\n${indent}}`
  }
  const items = value as readonly JsonOut[]
  if (items.length === 0) return '[]'
  return `[\n${items.map((item) => `${inner}${jsonText(item, inner)}`).join(',\n')}\n${indent}]`
}

/**
 * RRE ratings: a query group a query, named by its text, with that one query
 * (its `$query` placeholder) and its judgments as `{"docid": {"gain": g}}`.
 * RRE wants a template for every query; the set's template is a request of
 * this app, not an RRE template file, so the file names `template.json`
 * (as Quepid's RRE export does) for the person to supply.
 */
function rreText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
  const groups: JsonOut[] = set.queries.map((query) => {
    const documents = new Map<string, JsonOut>()
    for (const judgment of byQuery.get(query.id) ?? []) documents.set(judgment.item, new Map([['gain', judgment.grade]]))
    const rreQuery = new Map<string, JsonOut>([
      ['template', 'template.json'],
      ['placeholders', new Map([['$query', query.text]])],
    ])
    return new Map<string, JsonOut>([
      ['name', query.text],
      ['queries', [rreQuery]],
      ['relevant_documents', documents],
    ])
  })
  const root = new Map<string, JsonOut>([
    ['index', set.name],
    ['id_field', 'id'],
    ['query_groups', groups],
  ])
  return `${jsonText(root)}\n`
}

// ——— Reading ———

interface Importer {
  /** True once the file holds more judgments than a set may: reading stops there. */
  readonly full: boolean
  problem(where: string, what: string): void
  /** The grade a field's text gives, or null (a problem said) when it is not one of the scale's. */
  grade(where: string, raw: string): number | null
  /** The id of the query a text names: the set's query of that text, or a new one. */
  queryByText(where: string, text: string): string | null
  /** The id of the query a qid names: the set's, or a new one whose text is the id. */
  queryById(where: string, id: string): string | null
  judge(where: string, query: string, item: string, grade: number): void
  finish(): JudgmentImportResult
}

/** What an import adds to a query it names by id only: a qrels file knows no text, and a search for the id would find nothing. */
const ID_ONLY_NOTES = 'Added by a judgment import that named this query by its id alone; its text is that id until someone writes the words to search for.'

function importer(set: ImportSet, by: string): Importer {
  const scale = scaleOf(set)
  const grades = new Set(scale.map((step) => step.grade))
  const problems: string[] = []
  let problemCount = 0
  let full = false
  const newQueries: SetQuery[] = []
  const judgments: Judgment[] = []
  const textOf = new Map<string, string>()
  const byText = new Map<string, string>()
  const byFolded = new Map<string, string[]>()
  for (const query of set.queries) {
    textOf.set(query.id, query.text)
    if (!byText.has(query.text)) byText.set(query.text, query.id)
    const folded = fold(query.text)
    const ids = byFolded.get(folded)
    if (ids) ids.push(query.id)
    else byFolded.set(folded, [query.id])
  }
  const setIds = new Set(textOf.keys())
  const newByText = new Map<string, string>()
  const judged = new Map<string, { grade: number; where: string }>()
  // New ids go on from the set's: q31 after q1…q30, skipping any id in use.
  let next = 0
  for (const query of set.queries) {
    const number = /^q(\d{1,9})$/.exec(query.id)
    if (number) next = Math.max(next, Number(number[1]))
  }

  // `where` is a line ("line 7") or a JSON path; a problem of the whole file has none, and is a sentence of its own.
  const problem = (where: string, what: string) => {
    problemCount++
    if (problems.length < MAX_PROBLEMS_SHOWN) problems.push(where === '' ? what : `${where}: ${what}`)
  }
  // Who judged, as the set's schema holds it (200 characters at most).
  const judge = by.slice(0, 200)
  const addQuery = (query: SetQuery) => {
    newQueries.push(query)
    textOf.set(query.id, query.text)
  }

  return {
    get full() {
      return full
    },
    problem,
    grade(where, raw) {
      const text = raw.trim()
      // A whole number, written as such or with a zero fraction ("3.0", as a spreadsheet may save it).
      if (/^[+-]?\d{1,9}(?:\.0*)?$/.test(text)) {
        const value = Number(text) + 0 // -0 is 0
        if (grades.has(value)) return value
      }
      problem(where, `"${short(raw)}" is not a grade of the set's scale (${scaleText(scale)})`)
      return null
    },
    queryByText(where, text) {
      const exact = byText.get(text)
      if (exact !== undefined) return exact
      // What csvRecord writes as '=… for a formula guard is the text =…; Quepid's own guard is a leading space, which the trim below takes.
      const plain = unguarded(text)
      const unguardedMatch = byText.get(plain)
      if (unguardedMatch !== undefined) return unguardedMatch
      const loose = byFolded.get(fold(plain))
      if (loose?.length === 1) return loose[0]!
      // A new text matches only the same text (trimmed) added before: within one file, "fender" and "Fender" may be two queries on purpose (RRE's own example has both).
      const newText = plain.trim()
      const added = newByText.get(newText)
      if (added !== undefined) return added
      if (newText === '') {
        problem(where, 'names no query (its query text is empty)')
        return null
      }
      if (!SetQuerySchema.shape.text.safeParse(newText).success) {
        problem(where, `the query "${short(newText)}" is longer than a set's query may be (2,000 characters)`)
        return null
      }
      while (setIds.has(`q${++next}`));
      const id = `q${next}`
      setIds.add(id)
      newByText.set(newText, id)
      addQuery({ id, text: newText })
      return id
    },
    queryById(where, id) {
      if (textOf.has(id)) return id
      if (!SetQueryIdSchema.safeParse(id).success) {
        problem(where, `"${short(id)}" is not a query id: it is longer than 200 characters`)
        return null
      }
      setIds.add(id)
      addQuery({ id, text: id, notes: ID_ONLY_NOTES })
      return id
    },
    judge(where, query, item, grade) {
      if (full) return
      const key = `${query}\u0000${item}`
      const earlier = judged.get(key)
      if (earlier) {
        if (earlier.grade !== grade) {
          problem(where, `grades the item "${short(item)}" of the query "${short(textOf.get(query) ?? query)}" ${grade}, but ${earlier.where} grades it ${earlier.grade}; a file gives each query and item one grade`)
        }
        return
      }
      judged.set(key, { grade, where })
      if (judgments.length === MAX_SET_JUDGMENTS) {
        full = true
        return
      }
      judgments.push(judge === '' ? { query, item, grade } : { query, item, grade, by: judge })
    },
    finish() {
      if (full) {
        return { ok: false, message: `The file holds more than ${count(MAX_SET_JUDGMENTS)} judgments, more than a set may hold; split it, and import its parts into different sets.` }
      }
      if (set.queries.length + newQueries.length > MAX_SET_QUERIES) {
        problem('', `The file names ${count(newQueries.length)} queries the set does not have, which would bring it to ${count(set.queries.length + newQueries.length)}, over the ${count(MAX_SET_QUERIES)} a set may hold.`)
      }
      let replaced = 0
      let kept = 0
      const own = new Map<string, number>()
      for (const judgment of set.judgments) {
        const key = `${judgment.query}\u0000${judgment.item}`
        own.set(key, judgment.grade)
        if (!judged.has(key)) kept++
      }
      for (const judgment of judgments) {
        const grade = own.get(`${judgment.query}\u0000${judgment.item}`)
        if (grade !== undefined && grade !== judgment.grade) replaced++
      }
      if (kept + judgments.length > MAX_SET_JUDGMENTS) {
        problem('', `The file's judgments would bring the set to ${count(kept + judgments.length)}, over the ${count(MAX_SET_JUDGMENTS)} a set may hold.`)
      }
      if (problemCount > 0) {
        const more = problemCount - problems.length
        return { ok: false, message: problems.join('\n') + (more > 0 ? `\n(and ${more} more)` : '') }
      }
      return { ok: true, import: { newQueries, judgments, replaced } }
    },
  }
}

/** 200,000: the same text on every machine, whatever its locale. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** The key a query's text is matched by when no text matches exactly: trimmed, in lower case. */
function fold(text: string): string {
  return text.trim().toLowerCase()
}

/**
 * A field csvField wrote with its formula guard ('=1+1 for =1+1) read back
 * as it was; any other text as it is. A text that really starts with ' and
 * then a formula sign reads as the guarded one would: the guard makes the
 * two the same on paper, and the app's own files write the guard.
 */
function unguarded(text: string): string {
  if (!text.startsWith("'")) return text
  const rest = text.slice(1)
  return csvField(rest) === csvQuote(`'${rest}`) ? rest : text
}

/** A value as a message quotes it: a long one cut short. */
function short(value: string): string {
  const points = [...value.slice(0, 200)]
  return points.length > 60 ? `${points.slice(0, 60).join('')}…` : value
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** The text's size in UTF-8, counted no further than just past `limit` (a character is a byte at least). */
function utf8Length(text: string, limit: number): number {
  if (text.length > limit) return text.length
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

// Quepid CSV

/** Header names as compared: in lower case, spaces and underscores dropped, so `Doc ID` and `doc_id` are `docid`. */
function headerColumns(names: readonly string[]): { query: number; docid: number; rating: number; missing: string[] } {
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
function readQuepid(text: string, reader: Importer): string | null {
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

function checkItem(reader: Importer, where: string, item: string): boolean {
  if (item === '') {
    reader.problem(where, 'has an empty docid')
    return false
  }
  if (!ItemIdSchema.safeParse(item).success) {
    reader.problem(where, `the docid "${short(item)}" is longer than an item id may be (2,000 characters)`)
    return false
  }
  return true
}

// TREC qrels

/** trec_eval's qrels: `qid iter docid rel` split on white space; blank lines and `#` comments are read past. */
function readQrels(text: string, reader: Importer): string | null {
  const lines = withoutBom(text).split(/\r\n|\r|\n/)
  for (let index = 0; index < lines.length && !reader.full; index++) {
    const content = lines[index]!.trim()
    if (content === '' || content.startsWith('#')) continue
    const where = `line ${index + 1}`
    const fields = content.split(/\s+/)
    if (fields.length !== 4) {
      reader.problem(where, `expected 4 fields (qid iter docid rel), found ${fields.length}`)
      continue
    }
    const [qid, , docid, rel] = fields as [string, string, string, string]
    const grade = reader.grade(where, rel)
    const itemOk = checkItem(reader, where, docid)
    const query = reader.queryById(where, qid)
    if (query === null || grade === null || !itemOk) continue
    reader.judge(where, query, docid, grade)
  }
  return null
}

// RRE ratings JSON

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value that is a text, or a number read as its text (RRE reads both with asText). */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

interface RatedDocument {
  item: string
  grade: number
  where: string
}

/**
 * RRE's ratings, read as RRE's Engine reads them: `topics`, each with
 * `query_groups`, each with `queries` (a level left out is the node itself);
 * a query's text is its `query_placeholder` placeholder (`$query` unless the
 * file names another), else its first placeholder. A group's
 * `relevant_documents` judge each of its queries; one on a query (as
 * Quepid's RRE export writes them) judges that query alone.
 *
 * JSON.parse keeps the last of two equal keys, so a docid given twice in one
 * `relevant_documents` object is read once, with its last gain.
 */
function readRre(text: string, reader: Importer): string | null {
  let data: unknown
  try {
    data = JSON.parse(withoutBom(text))
  } catch (error) {
    return `The file is not JSON: ${error instanceof Error ? error.message : String(error)}`
  }
  if (nestedDeeperThan(data)) return `The file nests deeper than ${MAX_JSON_DEPTH} levels; RRE ratings are a few levels deep, so this is not one.`
  if (!isObject(data) || !(Object.hasOwn(data, 'topics') || Object.hasOwn(data, 'query_groups') || Object.hasOwn(data, 'queries'))) {
    return 'The file is not RRE ratings: its JSON is not an object with "topics", "query_groups" or "queries".'
  }
  const placeholder = typeof data.query_placeholder === 'string' ? data.query_placeholder : '$query'
  for (const topic of levels(data, [], 'topics', reader)) {
    for (const group of levels(topic.node, topic.path, 'query_groups', reader)) {
      if (reader.full) return null
      readGroup(group.node, group.path, placeholder, reader)
    }
  }
  return null
}

/** The nodes under `key`, or the node itself when it has no such key (as RRE's Engine reads a level left out). */
function levels(node: JsonObject, path: Path, key: string, reader: Importer): { node: JsonObject; path: Path }[] {
  if (!Object.hasOwn(node, key)) return [{ node, path }]
  const list = node[key]
  if (!Array.isArray(list)) {
    reader.problem(formatPath([...path, key]), 'is not a list')
    return []
  }
  const out: { node: JsonObject; path: Path }[] = []
  list.forEach((child: unknown, index) => {
    if (isObject(child)) out.push({ node: child, path: [...path, key, index] })
    else reader.problem(formatPath([...path, key, index]), 'is not an object')
  })
  return out
}

function readGroup(group: JsonObject, path: Path, placeholder: string, reader: Importer): void {
  const queries = group.queries
  if (!Array.isArray(queries)) {
    reader.problem(formatPath([...path, 'queries']), queries === undefined ? 'is missing: a query group lists its queries' : 'is not a list')
    return
  }
  const shared = Object.hasOwn(group, 'relevant_documents') ? ratedDocuments(group.relevant_documents, [...path, 'relevant_documents'], reader) : []
  queries.forEach((query: unknown, index) => {
    const at: Path = [...path, 'queries', index]
    if (!isObject(query)) {
      reader.problem(formatPath(at), 'is not an object')
      return
    }
    const text = queryText(query, placeholder)
    if (text === null) {
      reader.problem(formatPath([...at, 'placeholders']), `has no "${short(placeholder)}" placeholder (nor any other) to take the query's text from`)
      return
    }
    const own = Object.hasOwn(query, 'relevant_documents') ? ratedDocuments(query.relevant_documents, [...at, 'relevant_documents'], reader) : []
    const id = reader.queryByText(formatPath([...at, 'placeholders']), text)
    if (id === null) return
    for (const rated of [...shared, ...own]) reader.judge(rated.where, id, rated.item, rated.grade)
  })
}

function queryText(query: JsonObject, placeholder: string): string | null {
  const placeholders = query.placeholders
  if (!isObject(placeholders)) return null
  const named = Object.hasOwn(placeholders, placeholder) ? scalarText(placeholders[placeholder]) : null
  if (named !== null) return named
  for (const value of Object.values(placeholders)) {
    const text = scalarText(value)
    if (text !== null) return text
  }
  return null
}

/**
 * `relevant_documents` in any of the shapes RRE's tools write:
 * `{"docid": {"gain": 3}}` (RRE's own examples), `{"3": ["docid", …]}`
 * (Quepid's RRE export; RRE's Engine reads it as the first), and
 * `[{"document_id": "docid", "gain": 3}]` (RRE's dataset generator). Each
 * entry of an object is read by its own shape, so the first two may mix.
 */
function ratedDocuments(value: unknown, path: Path, reader: Importer): RatedDocument[] {
  const out: RatedDocument[] = []
  const add = (itemValue: unknown, itemPath: Path, grade: number | null) => {
    const where = formatPath(itemPath)
    const item = scalarText(itemValue)
    if (item === null) {
      reader.problem(where, 'is not a docid (a text)')
      return
    }
    if (checkItem(reader, where, item) && grade !== null) out.push({ item, grade, where })
  }
  const gainOf = (raw: unknown, where: string): number | null => {
    if (raw === undefined) {
      reader.problem(where, 'is missing: each rated document has a gain')
      return null
    }
    // A gain that is not a text or a number (true, null, a list) is refused by the same rule, quoted as JSON.
    return reader.grade(where, scalarText(raw) ?? JSON.stringify(raw))
  }
  if (Array.isArray(value)) {
    value.forEach((entry: unknown, index) => {
      const at: Path = [...path, index]
      if (!isObject(entry)) {
        reader.problem(formatPath(at), 'is not an object ({"document_id": …, "gain": …})')
        return
      }
      add(entry.document_id, [...at, 'document_id'], gainOf(entry.gain, formatPath([...at, 'gain'])))
    })
    return out
  }
  if (!isObject(value)) {
    reader.problem(formatPath(path), 'is neither an object of rated documents nor a list of them')
    return out
  }
  for (const [key, entry] of Object.entries(value)) {
    const at: Path = [...path, key]
    if (Array.isArray(entry)) {
      // {"3": ["a", "b"]}: the key is the gain of every docid listed.
      const grade = reader.grade(formatPath(at), key)
      entry.forEach((item: unknown, index) => add(item, [...at, index], grade))
    } else if (isObject(entry)) {
      add(key, at, gainOf(entry.gain, formatPath([...at, 'gain'])))
    } else {
      reader.problem(formatPath(at), 'is neither {"gain": …} nor a list of docids')
    }
  }
  return out
}
