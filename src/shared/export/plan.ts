import type { QueryOptions, QueryRequest, ResponseType } from '../query/model'
import { optionApplies } from '../query/response-types'

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'xml', 'rdf'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/** The most rows one export asks for. */
export const MAX_EXPORT_ROWS = 100_000

/** The most rows the service gives in one answer (`count` is 1..100): an export asks page by page. */
export const EXPORT_PAGE_SIZE = 100

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV',
  xlsx: 'XLSX',
  json: 'JSON',
  xml: 'XML',
  rdf: 'RDF',
}

/** What each format is, for the save dialog's filter and the format picker's hint. */
export const EXPORT_FORMAT_DESCRIPTIONS: Record<ExportFormat, string> = {
  csv: 'CSV (comma-separated values)',
  xlsx: 'Excel workbook',
  json: 'JSON array of result items',
  xml: 'XML document',
  rdf: 'RDF as N-Triples',
}

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  csv: 'csv',
  xlsx: 'xlsx',
  json: 'json',
  xml: 'xml',
  rdf: 'nt',
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  rdf: 'application/n-triples; charset=utf-8',
}

/** Response types whose answers are rows: an export asks the same chain as `results`. */
const EXPORTABLE: readonly ResponseType[] = ['results', 'results,count', 'resultpage']

export function exportRefusal(request: QueryRequest): string | null {
  if (EXPORTABLE.includes(request.responseType)) return null
  return `Export writes rows: run the chain as results first (this request asks for ${request.responseType}).`
}

/**
 * One page of an export: the chain as `results` at `offset`, `count` rows,
 * in `format` (json is the default and so not written), with the options
 * that shape results kept and the others (rank, column…) left out, as the
 * service refuses them for results.
 */
export function exportPageRequest(base: QueryRequest, offset: number, count: number, format: ExportFormat): QueryRequest {
  const options: QueryOptions = {}
  for (const [name, value] of Object.entries(base.options) as [keyof QueryOptions, never][]) {
    if (value !== undefined && optionApplies(name, 'results') && name !== 'count' && name !== 'offset' && name !== 'format') options[name] = value
  }
  options.count = count
  if (offset > 0) options.offset = offset
  if (format !== 'json') options.format = format
  const { facet: _facet, ...rest } = base
  return { ...rest, responseType: 'results', options }
}

/** What "Rows" offers in the export dialog. */
export type ExportRowsChoice = 'page' | 'loaded' | 'upTo'

/**
 * Where an export starts and how many rows it asks for: this page (the page
 * shown, at its size), the loaded rows (every row in the grid, after Load
 * more), or up to N from the first row.
 */
export function exportRange(
  choice: ExportRowsChoice,
  shown: { offset: number; pageSize: number; loaded: number },
  upTo: number,
): { offset: number; rows: number } {
  switch (choice) {
    case 'page':
      return { offset: shown.offset, rows: Math.max(1, shown.pageSize) }
    case 'loaded':
      return { offset: shown.offset, rows: Math.max(1, shown.loaded) }
    case 'upTo':
      return { offset: 0, rows: upTo }
  }
}
