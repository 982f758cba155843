import { csvPlainRecord } from '../../shared/export/csv'
import type { Table, TableCell } from './table'

/**
 * RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or
 * line break (the shared writer). The answer is the data as the real service
 * writes it: no formula guard, which is the app's, for the files it exports.
 */

function text(value: TableCell): string {
  return value === null ? '' : String(value)
}

export function toCsv(table: Table): string {
  let csv = csvPlainRecord(table.header)
  for (const row of table.rows) csv += csvPlainRecord(row.map(text))
  return csv
}
