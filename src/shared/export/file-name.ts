import { isEndpointStep, type QueryRequest } from '../query/model'
import { parseFilterValue } from '../query/tuple'
import { EXPORT_EXTENSIONS, type ExportFormat } from './plan'

/**
 * The name an export's file is offered under: what the rows are, then what
 * they answer, `san-europe-results.csv`. What they are is the saved query's
 * name when the rows come from one, else the search's parameter values in
 * the chain's order (a facet filter's selected values, an address's last
 * segment), else the API's name.
 */

/** Longest stem: a name stays readable in a file dialog, and far under any file system's limit. */
const MAX_STEM = 80

/** Lower case letters and digits of any script, runs of anything else as one dash; no leading dot, so never a hidden file. */
export function slug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  let out = ''
  for (const word of words) {
    const next = out ? `${out}-${word}` : word
    if (next.length > MAX_STEM) return out || word.slice(0, MAX_STEM)
    out = next
  }
  return out
}

/** `https://ex.org/place/Europe` reads as `Europe`: the part of an address a person would say. */
function spoken(value: string): string {
  if (!/^[a-z][a-z\d+.-]*:/i.test(value)) return value
  const parts = value.split(/[/#]/).filter(Boolean)
  return parts.at(-1) ?? value
}

/** The search's words: every parameter value of the chain, a facet filter's tuple list read for its text. */
export function searchWords(request: QueryRequest): string {
  const words: string[] = []
  for (const step of request.steps) {
    if (!isEndpointStep(step)) continue
    for (const value of Object.values(step.parameters)) {
      const read = value.includes('(') ? parseFilterValue(value) : null
      if (read?.ok) for (const tuple of read.value) words.push(...tuple.values.map((v) => spoken(String(v))))
      else words.push(spoken(value))
    }
  }
  return words.join(' ')
}

export function exportFileName(source: { request: QueryRequest; savedQuery?: string | null | undefined }, format: ExportFormat): string {
  const stem = slug(source.savedQuery ?? '') || slug(searchWords(source.request)) || slug(source.request.api) || 'query'
  return `${stem}-${slug(source.request.responseType)}.${EXPORT_EXTENSIONS[format]}`
}
