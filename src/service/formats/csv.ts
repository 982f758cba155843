import type { Table, TableCell } from './table'

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break. */

function field(value: TableCell): string {
  if (value === null) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(table: Table): string {
  return [table.header, ...table.rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n'
}
