/**
 * Option numbers read where they stand in the query string, for the URL
 * reader (url-parse-options.ts): the same answers as DECIMAL_PATTERN
 * (number-text.ts) and Number, without cutting the text out.
 */

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/**
 * `Number(value)` for `value = text.slice(start, end)` when `value.trim()` is
 * a decimal as DECIMAL_PATTERN reads one, else NaN (which no decimal reads
 * as). Read by hand, where it stands, rather than cut out and tested with the
 * pattern: every read URL has a few numeric options, and a short decimal is
 * worked out on the way.
 */
export function decimalIn(text: string, start: number, end: number): number {
  // Possible white space at either end: trim it as trim() does, then read the trimmed copy.
  if (start < end && !(isVisibleAscii(text.charCodeAt(start)) && isVisibleAscii(text.charCodeAt(end - 1)))) {
    const trimmed = text.slice(start, end).trim()
    return decimalOf(trimmed, 0, trimmed.length)
  }
  return decimalOf(text, start, end)
}

function isVisibleAscii(code: number): boolean {
  return code > 32 && code < 127
}

/** Powers of ten up to 10^15, each exactly a double (written out: `10 ** k` is not promised to be exact). */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/** decimalIn on text with nothing to trim. */
function decimalOf(text: string, start: number, end: number): number {
  const negative = start < end && text.charCodeAt(start) === 45
  let i = negative ? start + 1 : start
  let value = 0
  const wholeFrom = i
  for (; i < end && isDigit(text.charCodeAt(i)); i++) value = value * 10 + text.charCodeAt(i) - 48
  const whole = i - wholeFrom
  let fraction = 0
  if (i < end && text.charCodeAt(i) === 46) {
    const from = ++i
    for (; i < end && isDigit(text.charCodeAt(i)); i++) value = value * 10 + text.charCodeAt(i) - 48
    fraction = i - from
  }
  if (whole + fraction === 0) return NaN
  if (i === end) {
    // Up to 15 digits the digits read as a whole number are exact, and so is 10^fraction: one division then rounds
    // exactly as Number does (the fast path of every correct decimal reader).
    if (whole + fraction <= 15) return (negative ? -value : value) / POWERS_OF_TEN[fraction]!
    return Number(text.slice(start, end))
  }
  if ((text.charCodeAt(i) | 32) !== 101) return NaN
  i++
  if (i < end && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++
  const from = i
  while (i < end && isDigit(text.charCodeAt(i))) i++
  return i === from || i !== end ? NaN : Number(text.slice(start, end))
}
