import { describe, expect, it } from 'vitest'
import type { ApiDescription } from '../../src/shared/api-description'
import type { QueryRequest } from '../../src/shared/query/model'
import { requestWarnings, validateRequest, type Problem } from '../../src/shared/query/validate'

const DESCRIPTION: ApiDescription = {
  workspace: 'world',
  api: 'places',
  public: false,
  configs: ['default', 'production'],
  endpoints: [
    { name: 'search', kind: 'search', stackable: false, parameters: [{ name: 'query', type: 'STRING', required: true }], output: ['OBJ'] },
    { name: 'country', kind: 'facet-options', stackable: true, parameters: [], output: ['OBJ'] },
    { name: 'country:FILTER', kind: 'facet-filter', stackable: true, parameters: [{ name: 'value', type: 'TUPLE_LIST' }], output: ['OBJ'] },
    { name: 'triples', kind: 'list', stackable: true, parameters: [], output: ['STRING', 'STRING', 'STRING'] },
  ],
}

function valid(overrides: Partial<QueryRequest> = {}): QueryRequest {
  return {
    workspace: 'world',
    api: 'places',
    steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
    responseType: 'results',
    options: {},
    ...overrides,
  }
}

function problems(request: QueryRequest, description: ApiDescription | null = null): Problem[] {
  return validateRequest(request, { description })
}

describe('validateRequest', () => {
  it('finds nothing wrong with a good request, with or without the API description', () => {
    const good = valid({
      version: '4',
      steps: [
        { context: { lang: 'en' } },
        { endpoint: 'search', parameters: { query: 'paris' } },
        { endpoint: 'country:FILTER', parameters: { value: '1("https://ex.org/FR")|1(DE)' } },
      ],
      options: { config: 'production', count: 100, offset: 0, format: 'csv', level: 0, homogeneousArrays: true, cutoff: 1 },
    })
    expect(problems(good)).toEqual([])
    expect(problems(good, DESCRIPTION)).toEqual([])
    expect(problems(valid({ responseType: 'statistics', options: { config: 'default', cutoff: 0 } }))).toEqual([])
  })

  // One row per rule: the request, then the field and message of the one problem it must give.
  const rules: [string, QueryRequest, string, string][] = [
    ['empty workspace', valid({ workspace: '' }), 'workspace', 'Workspace name must not be empty'],
    ['blank workspace', valid({ workspace: '  ' }), 'workspace', 'Workspace name must not be empty'],
    ['empty api', valid({ api: '' }), 'api', 'API name must not be empty'],
    ['empty endpoint name', valid({ steps: [{ endpoint: '', parameters: {} }] }), 'steps[0].endpoint', 'Step 1: endpoint name must not be empty'],
    ['no endpoint step', valid({ steps: [] }), 'steps', 'The request needs at least one endpoint step'],
    ['only context steps', valid({ steps: [{ context: { a: 'b' } }] }), 'steps', 'The request needs at least one endpoint step'],
    ['bad version', valid({ version: 'v4' }), 'version', 'Version "v4" must be digits separated by dots, such as 4 or 4.1'],
    ['count 0', valid({ options: { count: 0 } }), 'options.count', 'Option count must be a whole number from 1 to 100, not 0'],
    ['count 101', valid({ options: { count: 101 } }), 'options.count', 'Option count must be a whole number from 1 to 100, not 101'],
    ['count 2.5', valid({ options: { count: 2.5 } }), 'options.count', 'Option count must be a whole number from 1 to 100, not 2.5'],
    ['negative offset', valid({ options: { offset: -1 } }), 'options.offset', 'Option offset must be a whole number, 0 or more, not -1'],
    ['fractional offset', valid({ options: { offset: 0.5 } }), 'options.offset', 'Option offset must be a whole number, 0 or more, not 0.5'],
    ['negative level', valid({ options: { level: -2 } }), 'options.level', 'Option level must be a whole number, 0 or more, not -2'],
    ['cutoff above 1', valid({ options: { cutoff: 1.5 } }), 'options.cutoff', 'Option cutoff must be a number from 0 to 1, not 1.5'],
    ['cutoff below 0', valid({ options: { cutoff: -0.1 } }), 'options.cutoff', 'Option cutoff must be a number from 0 to 1, not -0.1'],
    ['cutoff NaN', valid({ options: { cutoff: Number.NaN } }), 'options.cutoff', 'Option cutoff must be a number from 0 to 1, not NaN'],
    ['unknown format', valid({ options: { format: 'pdf' } }), 'options.format', 'Option format "pdf" is unknown (known: json, xml, rdf, csv, xlsx)'],
    ['empty config', valid({ options: { config: '' } }), 'options.config', 'Option config must not be empty (leave it unset for "default")'],
    ['format on statistics', valid({ responseType: 'statistics', options: { format: 'json' } }), 'options.format', 'Option format applies to results and results,count, not to statistics'],
    ['level on statistics', valid({ responseType: 'statistics', options: { level: 1 } }), 'options.level', 'Option level applies to results and results,count, not to statistics'],
    ['homogeneousArrays on statistics', valid({ responseType: 'statistics', options: { homogeneousArrays: false } }), 'options.homogeneousArrays', 'Option homogeneousArrays applies to results and results,count, not to statistics'],
    ['empty context step', valid({ steps: [{ context: {} }, { endpoint: 'search', parameters: { query: 'x' } }] }), 'steps[0]', 'Step 1: a context step needs at least one parameter'],
    ['empty parameter name', valid({ steps: [{ endpoint: 'search', parameters: { '': 'x' } }] }), 'steps[0].parameters', 'Step 1 (search): parameter name must not be empty'],
    ['empty parameter value', valid({ steps: [{ endpoint: 'search', parameters: { query: '' } }] }), 'steps[0].parameters.query', 'Step 1 (search): parameter "query" has an empty value; the service cannot receive an empty value'],
    ['empty context name', valid({ steps: [{ context: { '': 'x' } }, { endpoint: 's', parameters: {} }] }), 'steps[0].context', 'Step 1: context parameter name must not be empty'],
    ['empty context value', valid({ steps: [{ context: { lang: '' } }, { endpoint: 's', parameters: {} }] }), 'steps[0].context.lang', 'Step 1: context parameter "lang" has an empty value; the service cannot receive an empty value'],
    ['dot-dot value', valid({ steps: [{ endpoint: 'search', parameters: { query: '..' } }] }), 'steps[0].parameters.query', 'Step 1 (search): parameter "query" value: ".." cannot be sent: URL normalisation removes "." and ".." path segments'],
    ['dot endpoint', valid({ steps: [{ endpoint: '.', parameters: {} }] }), 'steps[0].endpoint', 'Step 1 (.): endpoint name: "." cannot be sent: URL normalisation removes "." and ".." path segments'],
    ['dot-dot workspace', valid({ workspace: '..' }), 'workspace', 'Workspace name: ".." cannot be sent: URL normalisation removes "." and ".." path segments'],
    ['lone surrogate', valid({ steps: [{ endpoint: 'search', parameters: { query: 'a\uD800' } }] }), 'steps[0].parameters.query', 'Step 1 (search): parameter "query" value: it holds an unpaired surrogate, which has no UTF-8 form and cannot be percent-encoded'],
  ]
  it.each(rules)('%s', (_name, request, field, message) => {
    expect(problems(request)).toEqual([{ field, message }])
  })

  it('accepts an empty value for a server that supports it', () => {
    expect(validateRequest(valid({ steps: [{ endpoint: 'search', parameters: { query: '' } }] }), { allowEmptyValues: true })).toEqual([])
  })

  it('returns every problem at once, in the order of the request', () => {
    const found = problems({
      version: 'x',
      workspace: '',
      api: '',
      steps: [{ context: {} }, { endpoint: '', parameters: { q: '' } }],
      responseType: 'statistics',
      options: { count: 0, offset: -1, level: -1, cutoff: 2, format: 'pdf', homogeneousArrays: true },
    })
    expect(found.map((problem) => problem.field)).toEqual([
      'version',
      'workspace',
      'api',
      'steps[0]',
      'steps[1].endpoint',
      'steps[1].parameters.q',
      'options.count',
      'options.offset',
      'options.level',
      'options.cutoff',
      'options.format',
      'options.level',
      'options.homogeneousArrays',
    ])
  })

  it('treats names such as constructor or toString as names, not as Object.prototype', () => {
    const description: ApiDescription = {
      ...DESCRIPTION,
      endpoints: [{ name: 'e', kind: 'search', stackable: false, parameters: [{ name: 'constructor', type: 'STRING', required: true }], output: ['OBJ'] }],
    }
    expect(problems(valid({ steps: [{ endpoint: 'e', parameters: {} }] }), description)).toEqual([
      { field: 'steps[0].parameters.constructor', message: 'Step 1 (e): parameter "constructor" is required' },
    ])
  })
})

describe('validateRequest with the API description', () => {
  const rules: [string, QueryRequest, string, string][] = [
    [
      'rdf when the last endpoint gives [OBJ]',
      valid({ options: { format: 'rdf' } }),
      'options.format',
      'Option format rdf needs an endpoint whose output is [STRING,STRING,STRING]; "search" gives [OBJ]',
    ],
    [
      'rdf decided by the last endpoint, not the first',
      valid({ steps: [{ endpoint: 'search', parameters: { query: 'x' } }, { endpoint: 'triples', parameters: {} }, { endpoint: 'country', parameters: {} }], options: { format: 'rdf' } }),
      'options.format',
      'Option format rdf needs an endpoint whose output is [STRING,STRING,STRING]; "country" gives [OBJ]',
    ],
    ['unknown endpoint', valid({ steps: [{ endpoint: 'nope', parameters: {} }] }), 'steps[0].endpoint', 'Step 1 (nope): the API "places" has no endpoint named "nope"'],
    [
      'non-stackable endpoint stacked',
      valid({ steps: [{ endpoint: 'country', parameters: {} }, { endpoint: 'search', parameters: { query: 'x' } }] }),
      'steps[1].endpoint',
      'Step 2 (search): endpoint "search" is not stackable, so it must be the first endpoint',
    ],
    [
      'unknown parameter',
      valid({ steps: [{ endpoint: 'search', parameters: { query: 'x', q: 'y' } }] }),
      'steps[0].parameters.q',
      'Step 1 (search): endpoint "search" has no parameter "q" (it has: query)',
    ],
    [
      'parameter on an endpoint that takes none',
      valid({ steps: [{ endpoint: 'search', parameters: { query: 'x' } }, { endpoint: 'country', parameters: { q: 'y' } }] }),
      'steps[1].parameters.q',
      'Step 2 (country): endpoint "country" has no parameter "q" (it takes none)',
    ],
    ['missing required parameter', valid({ steps: [{ endpoint: 'search', parameters: {} }] }), 'steps[0].parameters.query', 'Step 1 (search): parameter "query" is required'],
    [
      'facet filter value neither an option id nor tuple notation',
      valid({ steps: [{ endpoint: 'search', parameters: { query: 'x' } }, { endpoint: 'country:FILTER', parameters: { value: '1("FR"' } }] }),
      'steps[1].parameters.value',
      'Step 2 (country:FILTER): parameter "value" must be an option id or tuple notation such as 1("Europe"): missing ")" at position 6',
    ],
    ['unknown config', valid({ options: { config: 'staging' } }), 'options.config', 'Option config: the workspace has no configuration "staging" (it has: default, production)'],
  ]
  it.each(rules)('%s', (_name, request, field, message) => {
    expect(problems(request, DESCRIPTION)).toEqual([{ field, message }])
  })

  it('allows rdf when the last endpoint gives [STRING,STRING,STRING], and when its output is not known', () => {
    expect(problems(valid({ steps: [{ endpoint: 'search', parameters: { query: 'x' } }, { endpoint: 'triples', parameters: {} }], options: { format: 'rdf' } }), DESCRIPTION)).toEqual([])
    expect(problems(valid({ options: { format: 'rdf' } }))).toEqual([])
  })
})

describe('options the official clients send where the seed says they do not apply', () => {
  const warning = (name: string, type: string, where: string) =>
    `Option ${name}: the seed says it applies to ${where}, not to ${type}; the official clients send it with ${type}, so it is sent. A real deployment ignores it; the embedded service refuses it (400)`
  const pages = 'results, results,count, resultpage and options'

  it.each([
    ['statistics', { count: 10, offset: 0 }, [['count', pages], ['offset', pages]]],
    ['count', { count: 5 }, [['count', pages]]],
    ['resultitem', { multiselect: true }, [['multiselect', 'options']]],
  ] as const)('%s: sends them, each with a warning naming the rule', (type, options, expected) => {
    const request = valid({ responseType: type, options })
    expect(validateRequest(request)).toEqual([])
    expect(validateRequest(request, { description: DESCRIPTION })).toEqual([])
    expect(requestWarnings(request)).toEqual(expected.map(([name, where]) => ({ field: `options.${name}`, message: warning(name, type, where) })))
  })

  it('still refuses an option no client sends with the type, and warns of nothing for a request as the seed writes it', () => {
    expect(problems(valid({ responseType: 'statistics', options: { rank: 2 } }))).toEqual([
      { field: 'options.rank', message: 'Option rank applies to resultitem only, not to statistics' },
    ])
    expect(requestWarnings(valid({ responseType: 'statistics', options: { rank: 2 } }))).toEqual([])
    expect(requestWarnings(valid({ options: { config: 'default', count: 10 } }))).toEqual([])
  })
})

describe('options this client does not know', () => {
  it('are sent as written, each with a note, with any response type', () => {
    const request = valid({ responseType: 'statistics', options: { config: 'default', extra: { dev_version: 'master', 'x y': '' } } })
    expect(validateRequest(request)).toEqual([])
    expect(requestWarnings(request)).toEqual([
      { field: 'options.extra.dev_version', message: 'Option dev_version is not one the seed defines: it is sent as written, and a deployment that does not use it ignores it' },
      { field: 'options.extra.x y', message: 'Option x y is not one the seed defines: it is sent as written, and a deployment that does not use it ignores it' },
    ])
  })

  it('need a name, must not be a known option under another hat, and must have a UTF-8 form', () => {
    expect(problems(valid({ options: { extra: { '': 'x' } } }))).toEqual([
      { field: 'options.extra', message: 'An option this client does not know needs a name (it is sent as name=value)' },
    ])
    expect(problems(valid({ options: { extra: { count: '5' } } }))).toEqual([
      { field: 'options.extra.count', message: 'Option count is one this client knows: set it as options.count, not among the others' },
    ])
    expect(problems(valid({ options: { extra: { dev: 'a\uD800' } } }))).toEqual([
      { field: 'options.extra.dev', message: 'Option "dev": its value holds an unpaired surrogate, which cannot be percent-encoded' },
    ])
  })
})
