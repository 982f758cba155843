import { RESPONSE_TYPES, type EndpointStep, type ResponseType, type Step } from './model'
import { setEntry } from './records'
import { RESPONSE_TYPE_LABELS } from './response-types'
import { decodeText } from './url-decode'
import { badEncoding, decodeSpan, nextIndex } from './url-parse-spans'
import type { UrlError } from './url-segments'

/**
 * The chain reader of url-parse.ts: the `e`, `p` and `c` groups after
 * `/api/<api>` and the response type that ends them, read in place.
 */

/** How many parameter names of one endpoint parseChain compares a new one with before it looks names up instead. */
const NAMES_COMPARED = 16

const SLASH = 47
const E = 101
const P = 112
const C = 99

export interface Chain {
  ok: true
  steps: Step[]
  responseType: ResponseType
  /** The facet of `options/<facet>`. */
  facet?: string
  given: boolean
}

/**
 * A chain error remembers how far into the path it happened (where the
 * segment it names starts), so the most telling one can be reported.
 */
export type ChainFailure = { ok: false; error: UrlError; at: number }
export type ChainResult = Chain | ChainFailure

function failAt(at: number, segment: string, message: string): ChainFailure {
  return { ok: false, error: { segment, message }, at }
}

/** A response type written as one segment (all but `options`), percent-encoded or not. */
function singleSegmentType(segment: string): ResponseType | null {
  const text = decodeText(segment)
  return text !== null && text !== 'options' && (RESPONSE_TYPES as readonly string[]).includes(text) ? (text as ResponseType) : null
}

/**
 * Reads the chain after `/api/<api>`: its segments start at `start` and the
 * path ends at `to` (`start` past `to`: no segment). `c`, `e` and `p` groups,
 * then an optional response type. A single empty segment at the very end is
 * a trailing slash; an empty segment in a name or value position is an empty
 * name or value.
 *
 * A `/p/` pair belongs to the last endpoint before it, even when a run of
 * `/c/` pairs stands between them: a context pair applies only to endpoints
 * after it, so moving it after that endpoint's parameters means the same.
 *
 * Reads in place: a marker is one character followed by `/` or the end,
 * told without looking for its end; only names and values are cut out. A
 * segment "ends the path" when it is the last one, or the last but an empty
 * one (a trailing slash): it ends at `to` or at `to - 1`.
 */
export function parseChain(text: string, start: number, to: number): ChainResult {
  const steps: Step[] = []
  let endpoint: EndpointStep | null = null
  /** The names of `endpoint`'s parameters, `counted` of them (the array is reused from one endpoint to the next). */
  const named: string[] = []
  let counted = 0
  /** The context step being read: the last step, while the run of `/c/` pairs it holds goes on. */
  let context: Record<string, string> | null = null
  /** The first `%` at or after the segment being read, found again only once passed: one search per escaped segment. */
  let percent = -1
  let s = start
  while (s <= to) {
    const next = s + 1
    const first = s < to ? text.charCodeAt(s) : 0
    const marker = (first === E || first === P || first === C) && (next === to || text.charCodeAt(next) === SLASH) ? first : 0
    if (marker === E) {
      const nameStart = next + 1
      if (next === to || nameStart === to) return failAt(s, 'e', 'the endpoint marker "/e/" must be followed by an endpoint name')
      const nameEnd = nextIndex(text, '/', nameStart, to)
      if (percent < nameStart) percent = nextIndex(text, '%', nameStart, to)
      const name = decodeSpan(text, nameStart, nameEnd, percent)
      if (name === null) return { ok: false, error: badEncoding(text.slice(nameStart, nameEnd), 'endpoint name'), at: nameStart }
      endpoint = { endpoint: name, parameters: {} }
      counted = 0
      steps.push(endpoint)
      context = null
      s = nameEnd + 1
      continue
    }
    if (marker === P || marker === C) {
      const letter = marker === P ? 'p' : 'c'
      const nameStart = next + 1
      const nameEnd = next === to ? to : nextIndex(text, '/', nameStart, to)
      if (nameEnd === to) {
        const rawName = next === to ? '' : text.slice(nameStart, nameEnd)
        const what = marker === P ? 'parameter' : 'context parameter'
        return failAt(s, `${letter}/${rawName}`, `the ${what} "/${letter}/${rawName}" must be followed by a name and a value`)
      }
      const valueStart = nameEnd + 1
      const valueEnd = nextIndex(text, '/', valueStart, to)
      if (percent < nameStart) percent = nextIndex(text, '%', nameStart, to)
      const name = decodeSpan(text, nameStart, nameEnd, percent)
      if (name === null) {
        return { ok: false, error: badEncoding(text.slice(nameStart, nameEnd), marker === P ? 'parameter name' : 'context parameter name'), at: nameStart }
      }
      if (percent < valueStart) percent = nextIndex(text, '%', valueStart, to)
      const value = decodeSpan(text, valueStart, valueEnd, percent)
      if (value === null) return { ok: false, error: badEncoding(text.slice(valueStart, valueEnd), `value of "${name}"`), at: valueStart }
      if (marker === P) {
        if (!endpoint) {
          return failAt(s, `p/${text.slice(nameStart, nameEnd)}`, `parameter "${name}" stands before any endpoint; use /c/ for a context parameter`)
        }
        const parameters = endpoint.parameters
        // The endpoint's parameters are the names read since it: comparing with a few costs less than looking the name up.
        let earlier: string | undefined
        if (counted <= NAMES_COMPARED) {
          for (let k = 0; k < counted; k++) {
            if (named[k] === name) {
              earlier = parameters[name]
              break
            }
          }
        } else if (Object.hasOwn(parameters, name)) earlier = parameters[name]
        if (earlier === undefined) {
          setEntry(parameters, name, value)
          named[counted++] = name
        } else if (earlier !== value) {
          return failAt(
            s,
            `p/${text.slice(nameStart, nameEnd)}/${text.slice(valueStart, valueEnd)}`,
            `parameter "${name}" of endpoint "${endpoint.endpoint}" is given twice with different values ("${earlier}" and "${value}")`,
          )
        }
      } else {
        // A run of /c/ pairs is one context step; within it the later value wins (see normalize.ts).
        if (!context) {
          context = {}
          steps.push({ context })
        }
        setEntry(context, name, value)
      }
      s = valueEnd + 1
      continue
    }
    const end = nextIndex(text, '/', s, to)
    if (end >= to - 1) {
      const type = singleSegmentType(text.slice(s, end))
      if (type) return { ok: true, steps, responseType: type, given: true }
    }
    if (end - s === 7 && text.slice(s, end) === 'options') {
      const facetStart = end + 1
      const facetEnd = end === to ? to : nextIndex(text, '/', facetStart, to)
      if (end === to || facetEnd === facetStart || facetEnd < to - 1) {
        return failAt(s, 'options', 'the response type "options" must be the last two segments, followed by the facet options endpoint: /options/<facet>')
      }
      const facet = decodeSpan(text, facetStart, facetEnd, nextIndex(text, '%', facetStart, facetEnd))
      if (facet === null) return { ok: false, error: badEncoding(text.slice(facetStart, facetEnd), 'facet name'), at: facetStart }
      return { ok: true, steps, responseType: 'options', facet, given: true }
    }
    if (s === to) break
    const segment = text.slice(s, end)
    const after = endpoint ? ` after endpoint "${endpoint.endpoint}"` : ''
    return failAt(
      s,
      segment,
      `unexpected path segment "${segment}"${after}: expected e, p, c or a response type (${RESPONSE_TYPE_LABELS.join(', ')})`,
    )
  }
  return { ok: true, steps, responseType: 'results', given: false }
}
