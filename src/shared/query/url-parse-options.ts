import { OPTION_ORDER, type OptionName, type QueryOptions } from './model'
import { getEntry, setEntry } from './records'
import { decodeText } from './url-decode'
import { decimalIn } from './url-parse-decimal'
import { badEncoding, fail, nextIndex } from './url-parse-spans'
import type { Parsed, UrlError } from './url-segments'

/**
 * The option reader of url-parse.ts: the query string into the request's
 * options, known ones typed and in canonical order, unknown ones kept as written.
 */

/** A name or value of the query string decoded as a form writes it (`+` for a space). */
function decodeQueryPart(raw: string, what: string): Parsed<string> {
  const text = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw
  const value = decodeText(text)
  return value === null ? { ok: false, error: badEncoding(raw, what) } : { ok: true, value }
}

/**
 * The rank in OPTION_ORDER of the option named `name`, or -1. Options mostly
 * come in that order (the app writes them so), so the names after the last
 * one read are tried first.
 */
function optionRank(name: string, after: number): number {
  const count = OPTION_ORDER.length
  for (let k = 1; k <= count; k++) {
    const rank = (after + k) % count
    if (OPTION_ORDER[rank] === name) return rank
  }
  return -1
}

/**
 * Keeps an option this client does not know (a deployment's own, such as
 * `dev_version=master`), in the order given: real deployments ignore what they
 * do not use, so it is shown and sent back as written (SERVICE-CONTRACT
 * "Real deployments"). The same name twice follows the known options' rule.
 */
function keepExtra(options: QueryOptions, part: string, name: string, value: string): UrlError | null {
  if (name === '') return { segment: part, message: `an option needs a name before "=" (got "${part}")` }
  const extra = options.extra ?? (options.extra = {})
  const earlier = getEntry(extra, name)
  if (earlier !== undefined && earlier !== value) {
    return { segment: part, message: `option ${name} is given twice with different values ("${earlier}" and "${value}")` }
  }
  setEntry(extra, name, value)
  return null
}

/**
 * `options[key] = value`, each key written by name: one assignment with the
 * key in a variable would see every option object's shape and slow down to a
 * lookup by name.
 */
function setOption(options: QueryOptions, key: OptionName, value: string | number | boolean): void {
  switch (key) {
    case 'config':
      options.config = value as string
      break
    case 'count':
      options.count = value as number
      break
    case 'offset':
      options.offset = value as number
      break
    case 'format':
      options.format = value as string
      break
    case 'level':
      options.level = value as number
      break
    case 'homogeneousArrays':
      options.homogeneousArrays = value as boolean
      break
    case 'cutoff':
      options.cutoff = value as number
      break
    case 'rank':
      options.rank = value as number
      break
    case 'column':
      options.column = value as number
      break
    case 'multiselect':
      options.multiselect = value as boolean
      break
  }
}

/**
 * Reads the query string (`search` from `from` to `to`, with or without its
 * `?`): options in any order, `+` or `%20` for a space; names this client
 * does not know go to `extra`, as written. An option given twice with
 * different values is rejected rather than guessed at; the same value twice
 * is the same request.
 */
export function parseOptions(search: string, from: number, to: number): Parsed<QueryOptions> {
  const options: QueryOptions = {}
  const first = from < to && search.charCodeAt(from) === 63 ? from + 1 : from
  if (first === to) return { ok: true, value: options }
  // Most query strings hold neither, and then each name and value is its own text.
  const plain = nextIndex(search, '%', first, to) === to && nextIndex(search, '+', first, to) === to
  let inOrder = true
  let lastRank = -1
  /** A bit per option read so far, by rank: an option not read before needs no lookup for an earlier value. */
  let given = 0
  for (let start = first, end = first; start <= to; start = end + 1) {
    end = nextIndex(search, '&', start, to)
    if (end === start) continue
    const eq = nextIndex(search, '=', start, end)
    let name: string
    // The value where it stands: in the query string itself when that holds no escapes (a number is read there), else a decoded copy.
    let valueText = search
    let valueStart = eq === end ? end : eq + 1
    let valueEnd = end
    if (plain) name = search.slice(start, eq)
    else {
      const readName = decodeQueryPart(search.slice(start, eq), 'option name')
      if (!readName.ok) return readName
      const value = decodeQueryPart(search.slice(valueStart, end), `option ${readName.value}`)
      if (!value.ok) return value
      name = readName.value
      valueText = value.value
      valueStart = 0
      valueEnd = valueText.length
    }
    const rank = optionRank(name, lastRank)
    if (rank < 0) {
      const error = keepExtra(options, search.slice(start, end), name, valueText.slice(valueStart, valueEnd))
      if (error) return { ok: false, error }
      continue
    }
    // The name as OPTION_ORDER holds it: the cases below then compare by reference rather than by content.
    const key = OPTION_ORDER[rank]!
    let read: string | number | boolean
    switch (key) {
      case 'config':
      case 'format':
        read = valueText.slice(valueStart, valueEnd)
        break
      case 'count':
      case 'offset':
      case 'level':
      case 'cutoff':
      case 'rank':
      case 'column':
        read = decimalIn(valueText, valueStart, valueEnd)
        if (Number.isNaN(read)) {
          return fail(search.slice(start, end), `option ${key} must be a number, not "${valueText.slice(valueStart, valueEnd)}"`)
        }
        break
      case 'homogeneousArrays':
      case 'multiselect': {
        const value = valueText.slice(valueStart, valueEnd)
        if (value !== 'true' && value !== 'false') return fail(search.slice(start, end), `option ${key} must be true or false, not "${value}"`)
        read = value === 'true'
        break
      }
    }
    if (rank < lastRank) inOrder = false
    lastRank = rank
    if ((given & (1 << rank)) !== 0) {
      const earlier = options[key]
      // -0 and 0 are one value (a cutoff of -0 is 0): only a different value is a conflict.
      if (earlier !== read) {
        return fail(search.slice(start, end), `option ${key} is given twice with different values ("${String(earlier)}" and "${String(read)}")`)
      }
    }
    given |= 1 << rank
    setOption(options, key, read)
  }
  // Canonical order, so the model printed or saved reads the same whatever order was pasted.
  if (inOrder) {
    // The unknown ones go after the known, wherever they stood: the model reads the same as the URL built from it.
    const extra = options.extra
    if (extra) {
      delete options.extra
      options.extra = extra
    }
    return { ok: true, value: options }
  }
  const ordered: QueryOptions = {}
  for (const name of OPTION_ORDER) if (options[name] !== undefined) (ordered as Record<OptionName, unknown>)[name] = options[name]
  if (options.extra) ordered.extra = options.extra
  return { ok: true, value: ordered }
}
