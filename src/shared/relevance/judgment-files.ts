import { z } from 'zod'
import { suggestedFileName } from '../file-names'
import { ExplorerError } from '../ipc/errors'
import { gradesOfRater, gradesOfSet } from './grade-aggregate'
import { importer, wholeFileProblem, withoutBom, type ImportSet, type JudgmentImportResult } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'
import { headerColumns, quepidRatersText, quepidText, readQuepid } from './quepid-csv'
import { RaterNameSchema, ratersOf } from './raters'
import { readRre, rreText } from './rre-ratings'
import { qrelsText, readQrels } from './trec-qrels'

export { MAX_JUDGMENT_FILE_BYTES, type JudgmentImport, type JudgmentImportResult } from './judgment-import'
export { formatRunFile } from './trec-qrels'

/**
 * The files a set's judgments travel in to and from other tools:
 *
 * - `quepid-csv`: Quepid's CSV, the query named by its text, in its two
 *   shapes: a case's ratings, `query,docid,rating`, a row a grade (what
 *   Quepid's case import reads; no rater column), and a book's judgements,
 *   `query,docid,<rater>,<rater>…`, a column of grades per rater (Quepid's
 *   book export; a cell left empty where that rater gave none).
 * - `trec-qrels`: trec_eval's qrels, `qid iter docid rel`, split on white
 *   space; the query is named by its id in the set.
 * - `rre-json`: the ratings file of Sease's Rated Ranking Evaluator:
 *   `topics[].query_groups[].queries[].placeholders` (the query's text is its
 *   `$query` placeholder), each group's `relevant_documents` judging every
 *   query of the group; either of the two levels above the groups may be left
 *   out (RRE then reads the node itself as the one topic, or the one group).
 *   RRE's format names no rater.
 *
 * This module is the one entry to them: the formats, telling a file's format,
 * the name to offer it under, and handing a file to its format's reader or
 * writer (quepid-csv, trec-qrels, rre-ratings), which share the importer of
 * judgment-import.
 *
 * Reading is all or nothing: a file with any problem imports nothing, and
 * says which lines (or JSON paths) are wrong and why, so a person can fix
 * the file and import it again rather than guess at what got in.
 */

export const JUDGMENT_FORMATS = ['quepid-csv', 'trec-qrels', 'rre-json'] as const
export type JudgmentFormat = (typeof JUDGMENT_FORMATS)[number]

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

/** A name to offer the file under: the set's name as people wrote it ("World cities.qrels"), by the app's one rule for file names. */
export function judgmentFileName(format: JudgmentFormat, setName: string): string {
  return suggestedFileName(setName, EXTENSIONS[format], 'judgments')
}

/**
 * Reads a judgment file against a set: which of its queries each line names
 * (adding those the set lacks), and the grades, which must be whole numbers
 * on the set's scale. Each grade is by the rater the file names for it (a
 * Quepid book's column), else by `rater` (the file's name, or what the
 * command line says). On any problem nothing is read: the message lists up
 * to 10 problems, one a line, each with its line number (or JSON path) and
 * the rule it breaks.
 */
export function parseJudgments(format: JudgmentFormat, text: string, set: ImportSet, rater: string): JudgmentImportResult {
  const whole = wholeFileProblem(text)
  if (whole !== null) return { ok: false, message: whole }
  const reader = importer(set, rater)
  const early = format === 'quepid-csv' ? readQuepid(text, reader) : format === 'trec-qrels' ? readQrels(text, reader) : readRre(text, reader)
  if (early !== null) return { ok: false, message: early }
  return reader.finish()
}

/**
 * Which grades a file that holds one grade per query and item gets: the
 * set's aggregate (its own rule, mean by default), or one rater's own.
 */
export const JudgmentGradesSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('aggregate') }).strict(),
  z.object({ kind: z.literal('rater'), rater: RaterNameSchema }).strict(),
])
export type JudgmentGrades = z.infer<typeof JudgmentGradesSchema>

/** What an export wrote: the file's text and how many grades it holds. */
export interface JudgmentsText {
  text: string
  judgments: number
}

/**
 * The set's judgments in one of the formats. The same set gives the same
 * text, byte for byte: queries in the set's order, each query's items in
 * the order the set holds them.
 *
 * Quepid CSV keeps every rater's grades, a column each (Quepid's book
 * export), unless `grades` asks for one grade per item: then, as TREC qrels
 * and RRE ratings always (they have no place for a rater), the set's
 * aggregate (the default) or one rater's. A file holds whole grades, so an
 * aggregate between two (a mean of 1 and 2) is rounded half up: 1.5 is
 * written 2.
 */
export function writeJudgments(format: JudgmentFormat, set: QuerySet, grades?: JudgmentGrades): JudgmentsText {
  if (format === 'quepid-csv' && grades === undefined) return { text: quepidRatersText(set), judgments: set.judgments.length }
  const chosen = grades ?? { kind: 'aggregate' }
  let byQuery: Map<string, Judgment[]>
  if (chosen.kind === 'rater') {
    const names = ratersOf(set).map((rater) => rater.name)
    if (!names.includes(chosen.rater)) {
      const listed = names.length === 0 ? 'it has none yet' : `its raters are ${names.map((name) => `"${name}"`).join(', ')}`
      throw new ExplorerError('validation', `grades: the set "${set.name}" has no rater "${chosen.rater}"; ${listed}.`)
    }
    byQuery = oneGradeEach(gradesOfRater(set.judgments, chosen.rater), chosen.rater)
  } else {
    byQuery = oneGradeEach(gradesOfSet(set), 'aggregate')
  }
  let judgments = 0
  for (const list of byQuery.values()) judgments += list.length
  const text = format === 'quepid-csv' ? quepidText(set, byQuery) : format === 'trec-qrels' ? qrelsText(set, byQuery) : rreText(set, byQuery)
  return { text, judgments }
}

/** The set's judgments as one format writes them (writeJudgments' text). */
export function formatJudgments(format: JudgmentFormat, set: QuerySet, grades?: JudgmentGrades): string {
  return writeJudgments(format, set, grades).text
}

/** Round half up (toward the higher grade), the one rule on every machine: 1.5 is 2, -0.5 is 0. */
function wholeGrade(grade: number): number {
  return Math.floor(grade + 0.5) + 0
}

/**
 * One grade per query and item, by query id, as the writers take them: the
 * items in the order the set first holds them (gradesOf* keep it), the grade
 * made whole.
 */
function oneGradeEach(grades: ReadonlyMap<string, ReadonlyMap<string, number>>, rater: string): Map<string, Judgment[]> {
  const byQuery = new Map<string, Judgment[]>()
  for (const [query, items] of grades) {
    const list: Judgment[] = []
    for (const [item, grade] of items) list.push({ query, item, rater, grade: wholeGrade(grade) })
    if (list.length > 0) byQuery.set(query, list)
  }
  return byQuery
}
