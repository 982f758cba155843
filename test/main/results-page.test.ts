import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { readResultsPage } from '../../src/main/http/results-page'
import { MAX_JSON_DEPTH } from '../../src/shared/json-depth'

/**
 * A results page is read keeping only the items its request asked for. A
 * large body is walked over its bytes and only what is kept is parsed; a
 * small one is parsed whole and cut. Both must read every body as JSON.parse
 * reads it (the same page less the surplus items, or the same refusal), so
 * the walk is held to JSON.parse on generated pages (strings holding
 * brackets, quotes and escapes, every form of number, white space anywhere,
 * an escaped "items" key, "items" twice) and on each with a byte changed.
 */

const WHAT = 'results response'
/** Forces the walk over the bytes whatever the body's size. */
const WALK = 0

type Outcome = { value: unknown } | { error: string }

function outcome(read: () => unknown): Outcome {
  try {
    const value = read()
    // The walk reads a body that is JSON but not an object as null; the shape check says the same of both.
    return { value: typeof value === 'object' && value !== null && !Array.isArray(value) ? value : 'not an object' }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/** What the page must read as: JSON.parse's value of the body's bytes with any "items" array cut to `keep`, or JSON.parse's refusal. */
function expected(text: string, keep: number): Outcome {
  const body = Buffer.from(text, 'utf8')
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return { error: `The ${WHAT} is not valid JSON (${body.length} bytes received).` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value: 'not an object' }
  const items = (value as { items?: unknown }).items
  if (Array.isArray(items)) items.length = Math.min(items.length, keep)
  return { value }
}

/** The body is a page whose items run past `keep`. */
function cut(text: string, keep: number): boolean {
  const items = (JSON.parse(Buffer.from(text, 'utf8').toString('utf8')) as { items?: unknown } | null)?.items
  return Array.isArray(items) && items.length > keep
}

function both(text: string, keep: number): { walked: Outcome; whole: Outcome } {
  const body = Buffer.from(text, 'utf8')
  return { walked: outcome(() => readResultsPage(body, keep, WHAT, WALK)), whole: outcome(() => readResultsPage(body, keep, WHAT)) }
}

/** mulberry32: the same cases on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STRINGS = ['', 'paris', 'a "quoted" ]}, word', 'back\\slash', 'tab\tnew\nline', 'ünïcødé ✓ 𝄞', '\u0000\u001f', 'items', '[{"items":[1,2]}]', '\\u0041']
const NUMBERS = ['0', '-0', '7', '-12', '3.25', '1e5', '1E+2', '-2.5e-3', '0.0001', '123456789012345678901234567890']
const SPACES = ['', ' ', '\n', '\t', '\r\n  ']

function generator(seed: number) {
  const next = random(seed)
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  const ws = () => (next() < 0.7 ? '' : pick(SPACES))
  const string = (text: string) => {
    const written = JSON.stringify(text)
    // Now and then an escape JSON.stringify would not write.
    return next() < 0.2 ? written.replace(/a/g, '\\u0061').replace(/\//g, '\\/') : written
  }
  const value = (depth: number): string => {
    const roll = next()
    if (depth > 4 || roll < 0.35) return pick([...NUMBERS, 'true', 'false', 'null'])
    if (roll < 0.6) return string(pick(STRINGS))
    if (roll < 0.8) return `[${ws()}${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`
    return object(Array.from({ length: Math.floor(next() * 4) }, () => [pick(STRINGS), value(depth + 1)] as [string, string]))
  }
  const object = (entries: [string, string][], key = string) => `{${ws()}${entries.map(([name, written]) => `${key(name)}${ws()}:${ws()}${written}`).join(`${ws()},${ws()}`)}${ws()}}`
  const item = (rank: number) => {
    const entries: [string, string][] = [
      ['rank', String(rank)],
      ['probability', pick(NUMBERS)],
      ['tuple', `[${object([['id', string(`id ${rank} ${pick(STRINGS)}`)], ['class', '["C"]']])}]`],
    ]
    if (next() < 0.3) entries.push([pick(STRINGS), value(3)])
    return object(entries)
  }
  const page = () => {
    const items = `[${ws()}${Array.from({ length: Math.floor(next() * 30) }, (_, i) => item(i + 1)).join(`${ws()},${ws()}`)}${ws()}]`
    const entries: [string, string][] = [
      ['offset', '0'],
      ['count', '10'],
      ['type', '["OBJ"]'],
      ['items', next() < 0.1 ? value(1) : items],
    ]
    if (next() < 0.3) entries.push([pick(STRINGS), value(1)])
    if (next() < 0.1) entries.push(['items', items])
    entries.sort(() => next() - 0.5)
    // The page's own keys, "items" now and then escaped.
    const key = (name: string) => (name === 'items' && next() < 0.3 ? '"it\\u0065ms"' : string(name))
    return `${ws()}${object(entries, key)}${ws()}`
  }
  return { next, pick, page }
}

describe('readResultsPage', () => {
  it('keeps the first items of a 20,000-item page, and every other field, before and after the items', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ rank: i + 1, probability: 1 - i / 20_000, tuple: [{ id: `d${i}`, class: ['C'] }] }))
    const text = `{"offset":0,"count":20000,"items":${JSON.stringify(items)},"type":["OBJ"],"debug":{"note":"after"}}`
    const { walked, whole } = both(text, 10)
    expect(walked).toEqual({ value: { offset: 0, count: 20_000, items: items.slice(0, 10), type: ['OBJ'], debug: { note: 'after' } } })
    expect(whole).toEqual(walked)
    // No count asked: the page is read whole.
    expect((readResultsPage(Buffer.from(text), undefined, WHAT, WALK) as { items: unknown[] }).items).toHaveLength(20_000)
  })

  it('reads as JSON.parse reads, on 2,000 generated pages and each with a byte changed', () => {
    const { next, pick, page } = generator(33)
    const BYTES = ['', '"', '\\', ',', ':', '[', ']', '{', '}', ' ', '0', '-', 'e', '.', 'n', 'x', '\u0001', '\u00ff', '\ufeff']
    let refused = 0
    let cuts = 0
    for (let n = 0; n < 2_000; n++) {
      const text = page()
      const keep = Math.floor(next() * 35)
      const variants = [text]
      for (let k = 0; k < 3; k++) {
        const at = Math.floor(next() * text.length)
        variants.push(text.slice(0, at) + pick(BYTES) + text.slice(at + (next() < 0.5 ? 1 : 0)))
      }
      for (const variant of variants) {
        const want = expected(variant, keep)
        if ('error' in want) refused++
        const { walked, whole } = both(variant, keep)
        if (!isDeepStrictEqual(walked, want) || !isDeepStrictEqual(whole, want)) expect({ walked, whole }, `${variant} (keep ${keep})`).toEqual({ walked: want, whole: want })
        if ('value' in want && cut(variant, keep)) cuts++
      }
    }
    // The changed bytes made a good share of bodies that are not JSON, and left others valid.
    expect(refused).toBeGreaterThan(2_000)
    expect(refused).toBeLessThan(6_000)
    // And many of the valid ones had items past the count to drop.
    expect(cuts).toBeGreaterThan(1_000)
  })

  it('reads each number, literal and escape in the surplus as JSON.parse does', () => {
    const tokens = ['0', '-0', '00', '01', '-01', '-', '1.', '.5', '1.5', '1e', '1e+', '1E-7', '+1', '1.e5', '0x1', 'NaN', 'Infinity', '-Infinity', '1_000']
    tokens.push('true', 'tru', 'truee', 'True', 'null', 'nul', 'false', 'fals', '"\\u00e9"', '"\\u00g9"', '"\\x41"', '"\\/"', '"\\"', '"a\tb"', '"\\ud834\\udd1e"')
    for (const token of tokens) {
      const text = `{"type":["OBJ"],"offset":0,"count":1,"items":[{"rank":1,"probability":1,"tuple":["a"]},{"rank":2,"probability":1,"tuple":[${token}]},${token}]}`
      expect(both(text, 1), token).toEqual({ walked: expected(text, 1), whole: expected(text, 1) })
    }
  })

  it('refuses a surplus item nested deeper than the bound as too deep, and one that is not JSON as not JSON', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`
    const items = (surplus: string) => `{"offset":0,"count":1,"type":["OBJ"],"items":[{"rank":1,"probability":1,"tuple":["a"]},${surplus}]}`
    for (const read of [(text: string) => readResultsPage(Buffer.from(text), 1, WHAT, WALK), (text: string) => readResultsPage(Buffer.from(text), 1, WHAT)]) {
      // An item is level 3: 62 levels within it make 64 in all, one more is too deep.
      expect(() => read(items(`{"x":${'['.repeat(MAX_JSON_DEPTH - 3)}1${']'.repeat(MAX_JSON_DEPTH - 3)}}`))).not.toThrow()
      expect(() => read(items(`{"x":${'['.repeat(MAX_JSON_DEPTH - 2)}1${']'.repeat(MAX_JSON_DEPTH - 2)}}`))).toThrow(`nested deeper than ${MAX_JSON_DEPTH} levels`)
      expect(() => read(items(deep))).toThrow(`nested deeper than ${MAX_JSON_DEPTH} levels`)
      expect(() => read(items(`${deep.slice(0, -1)}`))).toThrow('is not valid JSON')
      expect(() => read(items('{"rank":2,"probability":1,"tuple":[nul]}'))).toThrow('is not valid JSON')
      expect(() => read(`\ufeff${items('1')}`)).toThrow('is not valid JSON')
    }
  })
})
