import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildUrl, parseTarget, parseUrl } from '../../src/shared/query/url'
import { anyRequest, bareBase, pathBase, text } from './arbitraries'
import * as reference from './url-parse-reference'

/**
 * The URL reader reads segments where they stand and decodes only those
 * holding a `%`, with its own decoder (url-parse.ts). It must read every
 * input exactly as the plain split-and-decodeURIComponent reader it replaced
 * (url-parse-reference.ts): the same request, key order included, or the
 * same error, naming the same segment with the same sentence.
 */

const runs = { numRuns: 3000 }

/** Same result, own `__proto__` keys and key order included (toStrictEqual alone ignores order). */
function same(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected)
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
}

/** Escapes that decode, escapes that do not, and look-alikes. */
const ESCAPES = [
  '%20', '%2F', '%2f', '%25', '%2B', '%3A', '%22', '%7C', '%C3%A9', '%c3%a9', '%E2%82%AC', '%F0%9F%98%80', '%EF%BF%BD',
  '%', '%%', '%2', '%G0', '%0G', '%zz', '%C3', '%C3%', '%C3%2', '%C3%41', '%80', '%BF', '%C0%80', '%E0%80%80', '%ED%A0%80',
  '%F4%90%80%80', '%F8%80%80%80%80', '%E0%A4%A', '%u0041', '%é1', '+', ' ', 'é', '日本', '😀', '\ud800', '\udc00',
]

const SEGMENTS = [
  'e', 'p', 'c', 'api', 'options', 'results', 'statistics', 'count', 'results,count', 'resultpage', 'resultitem', 'bogus',
  '', '4', '1.2', '1.', '.5', '0', 'w', 'a', 's', 'q', 'x', 'e1', 'country:FILTER', '__proto__', 'toString', 'constructor',
  '%65', '%61pi', 'result%73', 'options%2Fx',
]

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.constantFrom(...ESCAPES), fc.constantFrom('a', 'Z', '0', '-', '.', ':')), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: text.map((value) => value.replace(/[/?#]/g, '')) },
  { weight: 1, arbitrary: text.map(encodeURIComponent) },
)

/** Paths shaped like chains (markers followed by names and values), with the odd segment out of place. */
const chainPath = fc
  .tuple(
    fc.array(fc.constantFrom('query', 'api', 'v2', '4', ''), { maxLength: 2 }),
    fc.option(fc.constantFrom('4', '1.2', 'x'), { nil: undefined }),
    segment,
    fc.oneof({ weight: 9, arbitrary: fc.constant('api') }, { weight: 1, arbitrary: segment }),
    segment,
    fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.tuple(fc.constant('e'), segment) },
        { weight: 4, arbitrary: fc.tuple(fc.constant('p'), segment, segment) },
        { weight: 2, arbitrary: fc.tuple(fc.constant('c'), segment, segment) },
        { weight: 1, arbitrary: fc.tuple(segment) },
      ),
      { maxLength: 6 },
    ),
    fc.option(fc.oneof(fc.constantFrom('results', 'count', 'results,count', 'result%73', '', 'options'), fc.tuple(fc.constant('options'), segment).map((pair) => pair.join('/'))), {
      nil: undefined,
    }),
    fc.boolean(),
  )
  .map(([prefix, version, workspace, api, name, groups, type, slash]) => {
    const segments = [...prefix, ...(version === undefined ? [] : [version]), workspace, api, name, ...groups.flat(), ...(type === undefined ? [] : [type])]
    return `/${segments.join('/')}${slash ? '/' : ''}`
  })

/** Any path at all, made of the same segments. */
const loosePath = fc.array(segment, { maxLength: 10 }).map((segments) => `/${segments.join('/')}`)

const OPTION_NAMES = ['config', 'count', 'offset', 'format', 'level', 'homogeneousArrays', 'cutoff', 'rank', 'column', 'multiselect', 'extra', 'dev_version', '__proto__', 'a+b', 'a%20b', '', 'c%6Funt', 'co%']
const OPTION_VALUES = ['', '5', '25', '-0', '0.25', '1e3', ' 7 ', 'ten', 'true', 'false', 'yes', 'a+b', 'a%2Bb', 'my%20config', '%', '%zz', '%C3%A9', 'x&y', 'é']

/** What a number option may hold: decimals of every form, and near misses (the reader checks these by hand). */
const numberText = fc.oneof(
  fc.array(fc.constantFrom('0', '1', '7', '9', '.', '-', '+', 'e', 'E', ' ', '%20', '\u00a0', 'x'), { maxLength: 8 }).map((chars) => chars.join('')),
  fc.double().map(String),
  // Short decimals are worked out by hand (up to 15 digits), longer ones by Number: both sides of that line.
  fc
    .tuple(fc.boolean(), fc.stringMatching(/^\d{1,17}$/), fc.nat({ max: 17 }))
    .map(([negative, digits, point]) => `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
  // 68485347116678595 and the two after it: adding up their digits one by one rounds differently from Number.
  fc.constantFrom('-0', '0', '007', '999999999999999', '1000000000000000', '9007199254740993', '68485347116678595', '-63465731435050981', '99439276108108015', '1e21', '.5', '5.', '-.5', '-5.e3', '1e', '1e+', 'Infinity', 'NaN', '0x10', '1_000'),
)

const queryPart = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...OPTION_NAMES), fc.constantFrom(...OPTION_VALUES)).map(([name, value]) => `${name}=${value}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('count', 'offset', 'level', 'cutoff', 'rank', 'column'), numberText).map(([name, value]) => `${name}=${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('', 'flag', '=x', 'count', 'a=b=c') },
  { weight: 1, arbitrary: fc.tuple(segment, segment).map(([name, value]) => `${name}=${value}`) },
)
const search = fc.option(fc.array(queryPart, { maxLength: 6 }).map((parts) => `?${parts.join('&')}`), { nil: '' })
const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('#', '#top', '#a?b/c') },
  { weight: 1, arbitrary: fc.constantFrom('#x\ny', '#\r', '#\u2028', '#x\u2029') },
)

const origin = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('https://query.example.com', 'http://h', 'HTTP://H:8080', 'hTTpS://a.b') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'h', 'ftp://h', 'http://', 'https://', 'http:/h', 'http:h', 'httpx://h', 'http+s://h', '1http://h', 'a.b-c+d://h', 'h ttp://h', 'http://h?x', 'http://h#x', 'http://user@h:1'),
  },
)

const space = fc.constantFrom('', '', ' ', '\n', '\t ')

const url = fc
  .tuple(space, origin, fc.oneof({ weight: 8, arbitrary: chainPath }, { weight: 1, arbitrary: loosePath }, { weight: 1, arbitrary: fc.constantFrom('', '/') }), search, fragment, space)
  .map((parts) => parts.join(''))

describe('parseUrl reads every URL as the reference reader does', () => {
  it('for chain-shaped and arbitrary paths, query strings and fragments', () => {
    fc.assert(
      fc.property(url, (input) => {
        same(parseUrl(input), reference.parseUrl(input))
      }),
      runs,
    )
  })

  it('with the query URL given as base', () => {
    const base = fc.oneof(fc.constantFrom('http://h', 'http://h/', 'https://query.example.com/query', 'http://h/api', 'http://h/query/api/', 'http://other'), origin)
    fc.assert(
      fc.property(url, base, (input, given) => {
        same(parseUrl(input, { base: given }), reference.parseUrl(input, { base: given }))
      }),
      runs,
    )
  })

  it('for URLs the app builds, against any base', () => {
    fc.assert(
      fc.property(fc.oneof(bareBase, pathBase), anyRequest, fc.boolean(), (base, request, hinted) => {
        const written = buildUrl(base, request)
        const options = hinted ? { base } : {}
        same(parseUrl(written, options), reference.parseUrl(written, options))
      }),
      runs,
    )
  })

  it('for any query string after a path that reads', () => {
    fc.assert(
      fc.property(search, fragment, (query, hash) => {
        const input = `https://h/4/w/api/a/e/s/p/q/x/results${query}${hash}`
        same(parseUrl(input), reference.parseUrl(input))
      }),
      runs,
    )
  })

  it('for anything at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 40 }), (head, tail) => {
        for (const input of [head, `http://h/${head}`, `https://h/w/api/a/${tail}`, `http://h/w/api/a/e/s?${head}`]) {
          same(parseUrl(input), reference.parseUrl(input))
        }
      }),
      runs,
    )
  })

  it('for the examples that name each kind of segment', () => {
    const examples = [
      'https://h/w/api/a/e/s/p/q/new%20york/results',
      'https://h/w/api/a/e/s/p/q/new+york/results?config=my+config',
      'https://h/w/api/a/e/s/p/q/%E0%A4%A/results',
      'https://h/w/api/a/e/s/p/q/%/results',
      'https://h/w/api/a/e/s/p/q/%zz/results',
      'https://h/w/api/a/e/s/p/q/S%C3%A3o%20Paulo/results',
      'https://h/w/api/a/e/s/p/q/São Paulo/results',
      'https://h/w/api/a/e/s/p/q/%F0%9F%98%80/results',
      'https://h/w/api/a/e/s/p/q/%ED%A0%80/results',
      'https://h/w/api/a/e/s/p/q/%C3/%A9/results',
      'https://h/w/api/a/e/s/p/%C3/x/results',
      'https://h/w/api/a/e/s%/results',
      'https://h/w/api/a/options/x%2Fy',
      'https://h/w/api/a/options/%zz',
      'https://h/w/api/a/e/s/result%73',
      'https://h/w/api/a/e/s/%65/x',
      'https://h/w/api/a/c/%C3/x',
      'https://h/w%/api/a/e/s',
      'https://h/w/api/a%/e/s',
      'https://h/4/w/api/a/e/s/results?count=1%',
      'https://h/4/w/api/a/e/s/results?c%6Funt=5',
      'https://h/4/w/api/a/e/s/results?%=5',
      'https://h//w/api/a/e/s',
      'https://h//4/w/api/a/e/s',
      'https://h/x/api/y/w/api/a/e/s/bogus/results',
      'https://h/4/api/api/e/e/e/results',
      'https://h/w/api/a/e/s/results#x\ny',
    ]
    // Past the first few parameters of an endpoint, a repeated name is looked up rather than compared with each earlier one.
    const many = Array.from({ length: 20 }, (_, i) => `/p/n${i}/v${i}`).join('')
    examples.push(`https://h/w/api/a/e/s${many}/p/n3/v3/p/n19/v19`, `https://h/w/api/a/e/s${many}/p/n18/other`, `https://h/w/api/a/e/s${many}/p/n2/other`)
    for (const input of examples) same(parseUrl(input), reference.parseUrl(input))
  })
})

describe('parseTarget reads every path as the reference reader does', () => {
  it('with and without a leading slash, a query string and a known prefix', () => {
    const path = fc.oneof(chainPath, loosePath, chainPath.map((value) => value.slice(1)), fc.constantFrom('', '/', '//', 'api', '/api', 'w/api'))
    const prefix = fc.option(fc.nat({ max: 3 }), { nil: undefined })
    fc.assert(
      fc.property(path, search, fc.boolean(), prefix, (written, query, withQuestionMark, prefixSegments) => {
        const given = withQuestionMark ? query : query.slice(1)
        const options = prefixSegments === undefined ? {} : { prefixSegments }
        same(parseTarget(written, given, options), reference.parseTarget(written, given, options))
      }),
      runs,
    )
  })
})
