import { csvRecord } from '../export/csv'
import { suggestedFileName } from '../file-names'
import { labelsByKey, type Comparison } from './comparison'
import { moveText } from './rank-metrics'

/**
 * "Export comparison" as CSV. One table, so any spreadsheet or CSV reader
 * takes it as it is: one header row, then one row per item of the rank diff
 * (in the table's order). The comparison's own facts (depth, the two targets,
 * the figures) are trailing columns repeated on every row rather than a
 * second section or comment lines above the header, which readers would take
 * for data: each row stands alone, and sorting or filtering keeps them.
 * Fields are written as RFC 4180 with the export's neutralising of cells a
 * spreadsheet would run as formulas (an item's label is the server's text).
 */

export const COMPARISON_CSV_COLUMNS = [
  'key',
  'label',
  'rank_a',
  'rank_b',
  'move',
  'depth',
  'target_a',
  'target_b',
  'overlap',
  'jaccard',
  'rbo',
  'kendall_tau',
] as const

/** Six decimals at most: enough for any use of the figure, without a float's trailing noise. */
function decimal(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return ''
  return String(Math.round(value * 1e6) / 1e6)
}

const rank = (value: number | null) => (value === null ? '' : String(value))

/** The CSV text, with a byte-order mark so spreadsheets read the arrows and accented names as UTF-8. */
export function comparisonCsv(result: Comparison): string {
  const labels = labelsByKey(result)
  const figures = result.figures
  const context = [
    String(result.depth),
    result.a.label,
    result.b.label,
    figures ? String(figures.overlap) : '',
    decimal(figures?.jaccard),
    decimal(figures?.rbo),
    decimal(figures?.kendallTau),
  ]
  let text = `\uFEFF${csvRecord([...COMPARISON_CSV_COLUMNS])}`
  for (const change of result.changes) {
    text += csvRecord([change.key, labels.get(change.key) ?? change.key, rank(change.rankA), rank(change.rankB), moveText(change.move), ...context])
  }
  return text
}

/** A name that says what the file holds, by the app's one rule for file names: "Top 10 of Demo, config default vs Demo, config production.csv". */
export function comparisonFileName(result: Pick<Comparison, 'depth' | 'a' | 'b'>): string {
  return suggestedFileName(`Top ${result.depth} of ${result.a.label} vs ${result.b.label}`, 'csv', 'comparison')
}
