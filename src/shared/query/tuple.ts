/**
 * Tuple notation (SERVICE-CONTRACT "Tuple notation"): the value of a facet
 * filter. `1("https://ex.org/Europe")|1("https://ex.org/Asia")`, text quoted
 * with `\"` and `\\` escaped, numbers bare; readers also take unquoted text
 * without `,()|`, as the official client libraries write it.
 */

export type TupleValue = string | number

export interface Tuple {
  score: number
  values: TupleValue[]
}

export type TupleResult = { ok: true; value: Tuple[] } | { ok: false; error: { position: number; message: string } }

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

export function formatTupleValue(value: TupleValue): string {
  if (typeof value === 'number') return formatNumber(value)
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`tuple numbers must be finite, not ${value}`)
  return String(value)
}

export function formatTupleList(tuples: readonly Tuple[]): string {
  return tuples.map((tuple) => `${formatNumber(tuple.score)}(${tuple.values.map(formatTupleValue).join(',')})`).join('|')
}

/** Reads a tuple list; every error names the character position (0-based) and what was expected. */
export function parseTupleList(text: string): TupleResult {
  let i = 0
  const fail = (message: string): TupleResult => ({ ok: false, error: { position: i, message: `${message} at position ${i}` } })
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++
  }
  const tuples: Tuple[] = []
  if (text.trim() === '') return fail('a tuple list must hold at least one tuple, such as 1("Europe")')
  for (;;) {
    skipSpace()
    const scoreStart = i
    while (i < text.length && text[i] !== '(' && text[i] !== '|') i++
    const scoreText = text.slice(scoreStart, i).trim()
    if (!NUMBER.test(scoreText)) {
      i = scoreStart
      return fail(`expected a score (a number) before "(", found "${scoreText}"`)
    }
    if (text[i] !== '(') return fail('expected "(" after the score')
    i++
    const values: TupleValue[] = []
    for (;;) {
      skipSpace()
      if (text[i] === '"') {
        i++
        let value = ''
        for (;;) {
          if (i >= text.length) return fail('unterminated quoted text')
          const ch = text[i]!
          if (ch === '\\') {
            const next = text[i + 1]
            if (next !== '"' && next !== '\\') return fail('a backslash in quoted text must escape " or \\')
            value += next
            i += 2
          } else if (ch === '"') {
            i++
            break
          } else {
            value += ch
            i++
          }
        }
        values.push(value)
      } else {
        const start = i
        while (i < text.length && !',()|'.includes(text[i]!)) i++
        const raw = text.slice(start, i).trim()
        if (raw === '') return fail('expected a value (quoted text, bare text or a number)')
        if (raw.includes('"')) return fail('a quote may only open quoted text')
        values.push(NUMBER.test(raw) ? Number(raw) : raw)
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
    tuples.push({ score: Number(scoreText), values })
    skipSpace()
    if (i >= text.length) return { ok: true, value: tuples }
    if (text[i] !== '|') return fail(`expected "|" between tuples, found "${text[i]}"`)
    i++
  }
}
