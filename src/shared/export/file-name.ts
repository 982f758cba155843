import { fileNameStem, suggestedFileName } from '../file-names'
import { isEndpointStep, type QueryRequest } from '../query/model'
import { parseFilterValue } from '../query/tuple'
import { EXPORT_EXTENSIONS, type ExportFormat } from './plan'

/**
 * The name an export's file is offered under: what the rows are, then what
 * they answer when that is not plain results, `San Europe.csv`,
 * `San (statistics).json`, by the app's one rule for file names
 * (../file-names). What they are is the saved query's name when the rows
 * come from one, else the search's parameter values in the chain's order (a
 * facet filter's selected values, an address's last segment), else the
 * API's name.
 */

/** Longest slug: a word a person still reads at a glance. */
const MAX_STEM = 80

/**
 * A name as one word: lower case letters and digits of any script, runs of
 * anything else as one dash. File names follow ../file-names instead; this is
 * for a TREC run's tag (src/main/evaluation/run-file.ts), which must be one word.
 */
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
  const what = [source.savedQuery ?? '', searchWords(source.request), source.request.api].find((name) => fileNameStem(name) !== '') ?? 'query'
  const { responseType } = source.request
  return suggestedFileName(responseType === 'results' ? what : `${what} (${responseType})`, EXPORT_EXTENSIONS[format], 'query')
}
