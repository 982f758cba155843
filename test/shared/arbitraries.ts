import fc from 'fast-check'
import type { ContextStep, EndpointStep, QueryOptions, QueryRequest, Step } from '../../src/shared/query/model'
import { FORMATS, OPTION_ORDER, RESPONSE_TYPES, type ResponseType } from '../../src/shared/query/model'
import type { Tuple, TupleValue } from '../../src/shared/query/tuple'

/**
 * Generators for property tests. Text is drawn from all of unicode (astral
 * planes included) and salted with the characters and words a URL codec can
 * trip on: the delimiters, percent signs that look like escapes, quotes,
 * spaces, `+`, the path markers (`e`, `p`, `c`, `api`), response type names,
 * digits that look like a version, and the `:FILTER` suffix.
 */
const TRICKY = [
  '/', '%', '%2F', '%20', '%%', '"', "'", ' ', '+', '?', '#', '&', '=', '\\', ':', ';', ',', '(', ')', '|',
  'e', 'p', 'c', 'api', 'results', 'statistics', 'count', 'results,count', 'resultpage', 'resultitem', 'options',
  '4', '1.2', '.', '..', ':FILTER', '__proto__',
  'é', '日本', '😀', '\u0000', '\t', '\n', '\u200b',
]

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY) },
)

/** Any text, the empty string included. */
export const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''))
export const nonEmptyText = text.filter((value) => value !== '')

/**
 * `__proto__` is an ordinary name to the codec (records.ts), but fast-check
 * builds records with plain assignment; pairs go through Object.fromEntries,
 * which defines own properties for every name.
 */
function record(names: fc.Arbitrary<string>, values: fc.Arbitrary<string>, minKeys: number): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(names, values), { minLength: minKeys, maxLength: 4, selector: ([name]) => name })
    .map((pairs) => Object.fromEntries(pairs))
}

export const endpointStep: fc.Arbitrary<EndpointStep> = fc.record({
  endpoint: fc.oneof(text, text.map((name) => `${name}:FILTER`)),
  parameters: record(text, text, 0),
})

/** Non-empty: an empty context step writes nothing (see normalize.ts). */
export const contextStep: fc.Arbitrary<ContextStep> = fc.record({ context: record(text, text, 1) })

/** Chains in normal form: never two context steps in a row. */
export const normalSteps: fc.Arbitrary<Step[]> = fc
  .array(fc.tuple(fc.option(contextStep, { nil: undefined }), endpointStep), { maxLength: 5 })
  .chain((groups) =>
    fc.option(contextStep, { nil: undefined }).map((tail) => {
      const steps: Step[] = []
      for (const [context, endpoint] of groups) {
        if (context) steps.push(context)
        steps.push(endpoint)
      }
      if (tail && !(steps.length > 0 && !('endpoint' in steps[steps.length - 1]!))) steps.push(tail)
      return steps
    }),
  )

/** Any chain, with empty and adjacent context steps. */
export const anySteps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(endpointStep, fc.record({ context: record(text, text, 0) })),
  { maxLength: 6 },
)

const finite = fc.double({ noNaN: true, noDefaultInfinity: true })

export const options: fc.Arbitrary<QueryOptions> = fc.record(
  {
    config: text,
    count: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer()),
    offset: fc.oneof(fc.nat(), fc.integer()),
    format: fc.oneof(fc.constantFrom(...FORMATS), text),
    level: fc.oneof(fc.nat({ max: 5 }), fc.integer()),
    homogeneousArrays: fc.boolean(),
    cutoff: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), finite),
    rank: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer()),
    column: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer()),
    multiselect: fc.boolean(),
    // A deployment's own options: any name but the empty one and the known ones (those read as themselves).
    extra: record(
      nonEmptyText.filter((name) => !(OPTION_ORDER as readonly string[]).includes(name)),
      text,
      1,
    ),
  },
  { requiredKeys: [] },
)

/**
 * A response type, with the facet of `options/<facet>` (any name but the
 * empty one, which has no path segment of its own; validation refuses it).
 */
export const responseType: fc.Arbitrary<{ responseType: ResponseType; facet?: string }> = fc
  .constantFrom(...RESPONSE_TYPES)
  .chain((type): fc.Arbitrary<{ responseType: ResponseType; facet?: string }> =>
    type === 'options'
      ? fc.oneof(nonEmptyText, nonEmptyText.map((name) => `${name}:FILTER`)).map((facet) => ({ responseType: type, facet }))
      : fc.constant({ responseType: type }),
  )

export const version = fc.oneof(fc.nat().map(String), fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `${a}.${b}`))

function requestWith(steps: fc.Arbitrary<Step[]>): fc.Arbitrary<QueryRequest> {
  return fc
    .record(
      {
        version,
        workspace: text,
        api: text,
        steps,
        type: responseType,
        options,
      },
      { requiredKeys: ['workspace', 'api', 'steps', 'type', 'options'] },
    )
    // Keys in the order parseUrl writes them (version, workspace, api, steps, responseType, facet, options).
    .map(({ type, options: chosen, ...head }): QueryRequest => ({ ...head, ...type, options: chosen }))
    .filter(
      // The one request a URL cannot tell apart (SERVICE-CONTRACT: digits before
      // <workspace>/api are a version): no version, a workspace of digits and an
      // API named "api" reads as version + workspace "api". Tested by example.
      (request) => !(request.version === undefined && /^\d+(\.\d+)*$/.test(request.workspace) && request.api === 'api'),
    )
}

export const normalRequest = requestWith(normalSteps)
export const anyRequest = requestWith(anySteps)

/** Bases without a path: parseUrl needs no hint. */
export const bareBase = fc.constantFrom('http://localhost:8080', 'https://query.example.com', 'https://query.example.com/', 'HTTP://127.0.0.1:1')
/** Bases with a path of their own, even one holding `api`: read with parseUrl's `base` option. */
export const pathBase = fc.constantFrom('https://example.com/query', 'https://example.com/api/v2/', 'http://h/api', 'http://h/e/p/c')

const tupleValue: fc.Arbitrary<TupleValue> = fc.oneof(text, finite, fc.constant(-0))
export const tuple: fc.Arbitrary<Tuple> = fc.record({ score: fc.oneof(finite, fc.constantFrom(0, 1, -0)), values: fc.array(tupleValue, { maxLength: 4 }) })
export const tupleList = fc.array(tuple, { minLength: 1, maxLength: 5 })
