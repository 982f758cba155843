import { DECIMAL_PATTERN } from '../number-text'

/**
 * Tuple notation (SERVICE-CONTRACT "Tuple notation"): the value of a facet
 * filter. `1("https://ex.org/Europe")|1("https://ex.org/Asia")`, text quoted
 * with `\"` and `\\` escaped, numbers bare; readers also take unquoted text
 * without `,()|`, as the official client libraries write it (`1(Europe)`).
 *
 * `formatTupleList` and `parseTupleList` are exact inverses: text is always
 * written quoted, so it reads back as text even when it looks like a number;
 * `-0` is written `-0`; a tuple with no values is `1()`. A list holds at least
 * one tuple: the empty string is refused by both. Bare text is trimmed and, when it reads as a number, is
 * one: that is how the client libraries' `1(42)` is meant.
 */

export type TupleValue = string | number

export interface Tuple {
  score: number
  values: TupleValue[]
}

export type TupleResult = { ok: true; value: Tuple[] } | { ok: false; error: { position: number; message: string } }

const SPACE = /\s/

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`tuple numbers must be finite, not ${value}`)
  return Object.is(value, -0) ? '-0' : String(value)
}

export function formatTupleValue(value: TupleValue): string {
  if (typeof value === 'number') return formatNumber(value)
  return `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`
}

export function formatTuple(tuple: Tuple): string {
  return `${formatNumber(tuple.score)}(${tuple.values.map(formatTupleValue).join(',')})`
}

/**
 * Throws on an empty list: it has no notation (the empty string would be an
 * empty parameter value, which the client never sends). An empty selection
 * means no filter step at all (facets.ts).
 */
export function formatTupleList(tuples: readonly Tuple[]): string {
  if (tuples.length === 0) throw new RangeError('an empty tuple list has no tuple notation; leave the filter out instead')
  return tuples.map(formatTuple).join('|')
}

/** Reads a tuple list; every error names the character position (0-based) and what was expected. */
export function parseTupleList(text: string): TupleResult {
  let i = 0
  const fail = (message: string): TupleResult => ({ ok: false, error: { position: i, message: `${message} at position ${i}` } })
  const skipSpace = () => {
    while (i < text.length && SPACE.test(text[i]!)) i++
  }
  const tuples: Tuple[] = []
  if (text.trim() === '') return fail('a tuple list must hold at least one tuple, such as 1("Europe")')
  for (;;) {
    skipSpace()
    const scoreStart = i
    while (i < text.length && text[i] !== '(' && text[i] !== '|') i++
    const scoreText = text.slice(scoreStart, i).trim()
    if (!DECIMAL_PATTERN.test(scoreText)) {
      i = scoreStart
      return fail(`expected a score (a number) before "(", found "${scoreText}"`)
    }
    if (!Number.isFinite(Number(scoreText))) {
      i = scoreStart
      return fail(`score "${scoreText}" is out of range`)
    }
    if (text[i] !== '(') return fail('expected "(" after the score')
    i++
    const values: TupleValue[] = []
    skipSpace()
    if (text[i] === ')') i++
    else {
      for (;;) {
        skipSpace()
        if (text[i] === '"') {
          i++
          let value = ''
          let from = i
          for (;;) {
            if (i >= text.length) return fail('unterminated quoted text')
            const ch = text[i]!
            if (ch === '\\') {
              const next = text[i + 1]
              if (next !== '"' && next !== '\\') return fail('a backslash in quoted text must escape " or \\')
              value += text.slice(from, i) + next
              i += 2
              from = i
            } else if (ch === '"') {
              value += text.slice(from, i)
              i++
              break
            } else i++
          }
          values.push(value)
        } else {
          const start = i
          while (i < text.length && !',()|'.includes(text[i]!)) i++
          const raw = text.slice(start, i).trim()
          if (raw === '') return fail('expected a value (quoted text, bare text or a number)')
          if (raw.includes('"')) {
            i = start + text.slice(start, i).indexOf('"')
            return fail('a quote may only open quoted text')
          }
          const number = DECIMAL_PATTERN.test(raw) ? Number(raw) : null
          if (number !== null && !Number.isFinite(number)) return fail(`number "${raw}" is out of range`)
          values.push(number ?? raw)
        }
        skipSpace()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ')') {
          i++
          break
        }
        return fail(i >= text.length ? 'missing ")"' : `expected "," or ")", found "${text[i]}"`)
      }
    }
    tuples.push({ score: Number(scoreText), values })
    skipSpace()
    if (i >= text.length) return { ok: true, value: tuples }
    if (text[i] !== '|') return fail(`expected "|" between tuples, found "${text[i]}"`)
    i++
  }
}

/**
 * A facet filter's value as the service reads it (SERVICE-CONTRACT "Tuple
 * notation"): tuple notation, or a bare option id with no score and no
 * parentheses (`ES`), which is how the official client libraries write a
 * single selection: one option with score 1. The id is taken exactly as
 * written; text that is blank, or holds a parenthesis but is not tuple
 * notation, is refused with the tuple notation's own error.
 */
export function parseFilterValue(text: string): TupleResult {
  // Every tuple has parentheses, so a bare id is never tuple notation.
  return isBareOptionId(text) ? { ok: true, value: [{ score: 1, values: [text] }] } : parseTupleList(text)
}

/** True when the text is read as one bare option id rather than tuple notation. */
export function isBareOptionId(text: string): boolean {
  return text.trim() !== '' && !text.includes('(') && !text.includes(')')
}
