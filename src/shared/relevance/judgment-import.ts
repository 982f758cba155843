import { formatBytes } from '../byte-size'
import { csvField, csvQuote } from '../export/csv'
import { RaterNameSchema, ratersOf, UNNAMED_RATER } from './raters'
import {
  ItemIdSchema,
  MAX_SET_JUDGMENTS,
  MAX_SET_QUERIES,
  MAX_SET_RATERS,
  scaleOf,
  scaleText,
  SetQueryIdSchema,
  SetQuerySchema,
  type Judgment,
  type QuerySet,
  type SetQuery,
} from './query-set'

/**
 * What every judgment file reader shares, whatever the format: the limits on
 * a file, and the importer each reader hands what it finds (a query named by
 * text or id, a grade, a judgment, a problem and where it is). Matching
 * queries, making new query ids, checking grades against the set's scale and
 * collecting problems happen here once, so the three formats import alike and
 * differ only in how their text is split.
 */

/** The most text a judgment file may hold: far above any real set (200,000 qrels lines are about 6 MiB), far below what would stall the app. */
export const MAX_JUDGMENT_FILE_BYTES = 20 * 1024 * 1024
/** Problems listed by name; the rest are counted, as a person fixes the first few and imports again. */
const MAX_PROBLEMS_SHOWN = 10

export interface JudgmentImport {
  /** Queries the file names that the set does not have: added to the set (ids made unique: q31, q32… when the file gives none). */
  newQueries: SetQuery[]
  /** Every judgment of the file, on the set's (or the new) query ids; they replace the set's own for the same query, item and rater, and leave other raters' alone. */
  judgments: Judgment[]
  /** How many of those replace a judgment the set had (by the same rater) with another grade. */
  replaced: number
}

export type JudgmentImportResult = { ok: true; import: JudgmentImport } | { ok: false; message: string }

export type ImportSet = Pick<QuerySet, 'queries' | 'judgments' | 'scale' | 'raters'>

/** What keeps a file from being read at all, before any format looks at it: more text than a judgment file may hold, or none. */
export function wholeFileProblem(text: string): string | null {
  const size = utf8Length(text, MAX_JUDGMENT_FILE_BYTES)
  if (size > MAX_JUDGMENT_FILE_BYTES) {
    return `The file holds more than ${formatBytes(MAX_JUDGMENT_FILE_BYTES)} of text, more than a judgment file may; split it into smaller files and import each.`
  }
  if (text.trim() === '' || withoutBom(text).trim() === '') return 'The file is empty: it holds no judgments.'
  return null
}

export interface Importer {
  /** True once the file holds more judgments than a set may: reading stops there. */
  readonly full: boolean
  problem(where: string, what: string): void
  /** The grade a field's text gives, or null (a problem said) when it is not one of the scale's. */
  grade(where: string, raw: string): number | null
  /** The id of the query a text names: the set's query of that text, or a new one. */
  queryByText(where: string, text: string): string | null
  /** The id of the query a qid names: the set's, or a new one whose text is the id. */
  queryById(where: string, id: string): string | null
  /** A grade by `rater` (a rater column's), else by the file's own rater. */
  judge(where: string, query: string, item: string, grade: number, rater?: string): void
  /** Whether a name read from the file (a column's header) may be a rater's; a problem said where not. */
  raterName(where: string, name: string): boolean
  finish(): JudgmentImportResult
}

/** What an import adds to a query it names by id only: a qrels file knows no text, and a search for the id would find nothing. */
const ID_ONLY_NOTES = 'Added by a judgment import that named this query by its id alone; its text is that id until someone writes the words to search for.'

/**
 * `rater` is who the file's grades are by where the file does not say (the
 * file's name, or what the command line names): a format with a rater column
 * names its own, and a file's grades replace only that rater's, never
 * another's.
 */
export function importer(set: ImportSet, rater: string): Importer {
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
  // By query, item and rater: a file may grade an item once per rater.
  const judged = new Map<string, { grade: number; where: string }>()
  const fileRaters = new Set<string>()
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
  // The file's rater, as the set's schema holds a name (1 to 200 characters).
  const fileRater = rater.slice(0, 200) || UNNAMED_RATER
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
    judge(where, query, item, grade, named) {
      if (full) return
      const by = named ?? fileRater
      const key = `${query}\u0000${item}\u0000${by}`
      const earlier = judged.get(key)
      if (earlier) {
        if (earlier.grade !== grade) {
          const whose = named === undefined ? '' : ` by "${short(by)}"`
          const rule = named === undefined ? 'a file gives each query and item one grade' : 'a file gives each query, item and rater one grade'
          problem(where, `grades the item "${short(item)}" of the query "${short(textOf.get(query) ?? query)}" ${grade}${whose}, but ${earlier.where} grades it ${earlier.grade}; ${rule}`)
        }
        return
      }
      judged.set(key, { grade, where })
      if (judgments.length === MAX_SET_JUDGMENTS) {
        full = true
        return
      }
      fileRaters.add(by)
      judgments.push({ query, item, rater: by, grade })
    },
    raterName(where, name) {
      if (RaterNameSchema.safeParse(name).success) return true
      problem(where, name === '' ? 'names no rater (a column of grades needs a rater\'s name for its header)' : `the rater "${short(name)}" has a longer name than a rater's may be (200 characters)`)
      return false
    },
    finish() {
      if (full) {
        return { ok: false, message: `The file holds more than ${count(MAX_SET_JUDGMENTS)} judgments, more than a set may hold; split it, and import its parts into different sets.` }
      }
      if (set.queries.length + newQueries.length > MAX_SET_QUERIES) {
        problem('', `The file names ${count(newQueries.length)} queries the set does not have, which would bring it to ${count(set.queries.length + newQueries.length)}, over the ${count(MAX_SET_QUERIES)} a set may hold.`)
      }
      const known = new Set(ratersOf(set).map((each) => each.name))
      const newRaters = [...fileRaters].filter((name) => !known.has(name)).length
      if (known.size + newRaters > MAX_SET_RATERS) {
        problem('', `The file names ${count(newRaters)} raters the set does not have, which would bring it to ${count(known.size + newRaters)}, over the ${count(MAX_SET_RATERS)} a set may list.`)
      }
      // Keyed as the set's edit replaces them (set-edits.ts withImport): by query, item and rater.
      let replaced = 0
      let kept = 0
      const own = new Map<string, number>()
      for (const judgment of set.judgments) {
        const key = `${judgment.query}\u0000${judgment.item}\u0000${judgment.rater}`
        own.set(key, judgment.grade)
        if (!judged.has(key)) kept++
      }
      for (const judgment of judgments) {
        const grade = own.get(`${judgment.query}\u0000${judgment.item}\u0000${judgment.rater}`)
        if (grade !== undefined && grade !== judgment.grade) replaced++
      }
      if (kept + judgments.length > MAX_SET_JUDGMENTS) {
        problem('', `The file's judgments would bring the set to ${count(kept + judgments.length)}, over the ${count(MAX_SET_JUDGMENTS)} a set may hold.`)
      }
      if (problemCount > 0) {
        const more = problemCount - problems.length
        return { ok: false, message: problems.join('\n') + (more > 0 ? `\n(and ${count(more)} more)` : '') }
      }
      return { ok: true, import: { newQueries, judgments, replaced } }
    },
  }
}

/** 200,000: the same text on every machine, whatever its locale. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** Whether a docid may be an item id (not empty, not over 2,000 characters); a problem said where not. */
export function checkItem(reader: Importer, where: string, item: string): boolean {
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
export function unguarded(text: string): string {
  if (!text.startsWith("'")) return text
  const rest = text.slice(1)
  return csvField(rest) === csvQuote(`'${rest}`) ? rest : text
}

/** A value as a message quotes it: a long one cut short. */
export function short(value: string): string {
  const points = [...value.slice(0, 200)]
  return points.length > 60 ? `${points.slice(0, 60).join('')}…` : value
}

export function withoutBom(text: string): string {
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
