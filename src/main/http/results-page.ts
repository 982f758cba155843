import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/json-depth'
import { notJson, parseJson, tooDeep } from './response-body'

/**
 * Reads a results page keeping at most the `keep` items its request asked
 * for (`count`): a server answering more (600,000 tiny items, 40 MB, under
 * the size an answer may have) must not cost 600,000 objects. A large body
 * is walked over its bytes once, checking that all of it is JSON nested no
 * deeper than MAX_JSON_DEPTH, and only the page without its items' surplus
 * is parsed; the surplus is never made into objects, nor its shape checked.
 * A small body is parsed whole, as before, and its surplus checked for depth
 * and dropped, so both read the same answers the same way.
 *
 * Returns the page as parsed, or null when the body is valid JSON but not an
 * object (the shape check says what a page must be); throws the same errors
 * as parseJson for a body that is not JSON or nests too deep.
 */

/** Below this a body is parsed whole: a walk over its bytes first would cost more than the objects it saves. */
export const WHOLE_PARSE_BYTES = 1024 * 1024

export function readResultsPage(body: Buffer, keep: number | undefined, what: string, wholeBelow = WHOLE_PARSE_BYTES): unknown {
  if (keep === undefined) return parseJson(body, what, false)
  if (body.length <= wholeBelow) return parsedWhole(body, keep, what)
  const scan = scanPage(body, keep)
  if (scan === INVALID) throw notJson(what, body.length)
  if (scan === TOO_DEEP) throw tooDeep(what)
  if (!scan.object) return null
  const cuts = scan.cuts
  if (cuts.length === 0) return parseJson(body, what, false)
  const parts: Buffer[] = []
  let from = 0
  for (let k = 0; k < cuts.length; k += 2) {
    parts.push(body.subarray(from, cuts[k]))
    from = cuts[k + 1]!
  }
  parts.push(body.subarray(from))
  return JSON.parse(Buffer.concat(parts).toString('utf8'))
}

function parsedWhole(body: Buffer, keep: number, what: string): unknown {
  const page = parseJson(body, what, false)
  const items = typeof page === 'object' && page !== null && !Array.isArray(page) ? (page as { items?: unknown }).items : undefined
  if (!Array.isArray(items) || items.length <= keep) return page
  // The page is level 1, its items level 3: a surplus item nesting deeper is refused as a large body's walk refuses it.
  for (let i = keep; i < items.length; i++) {
    const item: unknown = items[i]
    if (typeof item === 'object' && item !== null && nestedDeeperThan(item, MAX_JSON_DEPTH - 2)) throw tooDeep(what)
  }
  items.length = keep
  return page
}

const INVALID = 0
const TOO_DEEP = 1

interface Scan {
  /** The body's top level is an object. */
  object: boolean
  /** [from, to) byte ranges to leave out: each top-level "items" array's elements past `keep`, from the comma before the first of them to its closing bracket. */
  cuts: number[]
}

const OBJECT = 1
const ARRAY = 2

const enum Expect {
  Value,
  Key,
  After,
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const MINUS = 0x2d

/** JSON's four white-space bytes. */
const SPACE = new Uint8Array(256)
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) SPACE[byte] = 1
/** Bytes a string's scan must stop at: its quote, an escape, a control character (which JSON refuses raw). */
const STRING_STOP = new Uint8Array(256)
for (let byte = 0; byte < 0x20; byte++) STRING_STOP[byte] = 1
STRING_STOP[QUOTE] = 1
STRING_STOP[BACKSLASH] = 1
/** The characters that may follow a backslash, `u` aside. */
const SIMPLE_ESCAPE = new Uint8Array(256)
for (const char of '"\\/bfnrt') SIMPLE_ESCAPE[char.charCodeAt(0)] = 1
const HEX = new Uint8Array(256)
for (const char of '0123456789abcdefABCDEF') HEX[char.charCodeAt(0)] = 1
const ITEMS = Buffer.from('items')
const LITERALS = [Buffer.from('true'), Buffer.from('false'), Buffer.from('null')]

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39

/**
 * One pass over the bytes, by the grammar of RFC 8259 (what JSON.parse
 * accepts of a UTF-8 body: bytes past ASCII only inside strings). Depth is
 * counted past the bound to the end, so a body both too deep and not JSON
 * is "not JSON", as parseJson says.
 */
export function scanPage(b: Buffer, keep: number): Scan | typeof INVALID | typeof TOO_DEEP {
  const n = b.length
  let kinds = new Uint8Array(MAX_JSON_DEPTH + 2)
  let depth = 0
  let deep = false
  let object = false
  let i = 0
  let expect = Expect.Value
  /** The key just read is the page's "items". */
  let itemsKey = false
  /** Inside a top-level "items" array (depth 2): its elements are counted. */
  let counting = false
  let element = 0
  let cutFrom = -1
  const cuts: number[] = []
  for (;;) {
    while (i < n && SPACE[b[i]!] === 1) i++
    if (expect === Expect.Value) {
      if (i >= n) return INVALID
      const c = b[i]!
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        depth++
        if (depth > MAX_JSON_DEPTH) deep = true
        if (depth === kinds.length) {
          const grown = new Uint8Array(kinds.length * 2)
          grown.set(kinds)
          kinds = grown
        }
        kinds[depth] = c === OPEN_OBJECT ? OBJECT : ARRAY
        if (depth === 1) object = c === OPEN_OBJECT
        const items = itemsKey && depth === 2 && c === OPEN_ARRAY
        itemsKey = false
        i++
        while (i < n && SPACE[b[i]!] === 1) i++
        if (i < n && b[i] === (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          i++
          depth--
          expect = Expect.After
        } else if (c === OPEN_OBJECT) {
          expect = Expect.Key
        } else {
          if (items) {
            counting = true
            element = 0
            cutFrom = keep === 0 ? i : -1
          }
          expect = Expect.Value
        }
        continue
      }
      itemsKey = false
      if (c === QUOTE) i = stringEnd(b, i)
      else if (c === MINUS || isDigit(c)) i = numberEnd(b, i)
      else i = literalEnd(b, i)
      if (i < 0) return INVALID
      expect = Expect.After
      continue
    }
    if (expect === Expect.Key) {
      if (i >= n || b[i] !== QUOTE) return INVALID
      const start = i
      i = stringEnd(b, i)
      if (i < 0) return INVALID
      if (depth === 1) itemsKey = namesItems(b, start, i)
      while (i < n && SPACE[b[i]!] === 1) i++
      if (i >= n || b[i] !== COLON) return INVALID
      i++
      expect = Expect.Value
      continue
    }
    // After a value: the end of the body, or what its container takes next.
    if (depth === 0) {
      if (i < n) return INVALID
      return deep ? TOO_DEEP : { object, cuts }
    }
    if (i >= n) return INVALID
    const c = b[i]!
    const kind = kinds[depth]
    if (c === COMMA) {
      if (kind === ARRAY && counting && depth === 2 && ++element === keep) cutFrom = i
      i++
      expect = kind === OBJECT ? Expect.Key : Expect.Value
      continue
    }
    if (c !== (kind === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) return INVALID
    if (counting && depth === 2) {
      if (cutFrom >= 0) cuts.push(cutFrom, i)
      counting = false
    }
    depth--
    i++
  }
}

/** The index past a string's closing quote (`i` at its opening one), or -1. */
function stringEnd(b: Buffer, i: number): number {
  const n = b.length
  i++
  for (;;) {
    while (i < n && STRING_STOP[b[i]!] === 0) i++
    if (i >= n) return -1
    const c = b[i]!
    if (c === QUOTE) return i + 1
    if (c !== BACKSLASH) return -1
    const escaped = b[i + 1]
    if (escaped === undefined) return -1
    if (SIMPLE_ESCAPE[escaped] === 1) i += 2
    else if (escaped === 0x75 && HEX[b[i + 2] ?? 0] === 1 && HEX[b[i + 3] ?? 0] === 1 && HEX[b[i + 4] ?? 0] === 1 && HEX[b[i + 5] ?? 0] === 1) i += 6
    else return -1
  }
}

/** The index past a number (`-? int frac? exp?`), or -1. */
function numberEnd(b: Buffer, i: number): number {
  if (b[i] === MINUS) i++
  if (b[i] === 0x30) i++
  else if (isDigit(b[i])) while (isDigit(b[i])) i++
  else return -1
  if (b[i] === 0x2e) {
    i++
    if (!isDigit(b[i])) return -1
    while (isDigit(b[i])) i++
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++
    if (b[i] === 0x2b || b[i] === MINUS) i++
    if (!isDigit(b[i])) return -1
    while (isDigit(b[i])) i++
  }
  return i
}

/** The index past `true`, `false` or `null`, or -1. */
function literalEnd(b: Buffer, i: number): number {
  for (const literal of LITERALS) {
    const end = i + literal.length
    if (b[i] === literal[0] && end <= b.length && b.compare(literal, 0, literal.length, i, end) === 0) return end
  }
  return -1
}

/** Whether the key in b[start, end) (quotes included) is "items", however it is escaped. */
function namesItems(b: Buffer, start: number, end: number): boolean {
  const raw = b.subarray(start + 1, end - 1)
  if (!raw.includes(BACKSLASH)) return raw.equals(ITEMS)
  return JSON.parse(b.toString('utf8', start, end)) === 'items'
}
