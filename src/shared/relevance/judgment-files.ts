import { suggestedFileName } from '../file-names'
import { importer, wholeFileProblem, withoutBom, type ImportSet, type JudgmentImportResult } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'
import { headerColumns, quepidText, readQuepid } from './quepid-csv'
import { readRre, rreText } from './rre-ratings'
import { qrelsText, readQrels } from './trec-qrels'

export { MAX_JUDGMENT_FILE_BYTES, type JudgmentImport, type JudgmentImportResult } from './judgment-import'
export { formatRunFile } from './trec-qrels'

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
 * on the set's scale. `by` is written on every judgment read (who imported
 * it, or the file's name). On any problem nothing is read: the message lists
 * up to 10 problems, one a line, each with its line number (or JSON path)
 * and the rule it breaks.
 */
export function parseJudgments(format: JudgmentFormat, text: string, set: ImportSet, by: string): JudgmentImportResult {
  const whole = wholeFileProblem(text)
  if (whole !== null) return { ok: false, message: whole }
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
