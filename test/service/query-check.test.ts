import { describe, expect, it } from 'vitest'
import { checkQuery, noSuchApi } from '../../src/service/query/query-check'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'
import type { QueryRequest, Step } from '../../src/shared/query/model'
import { serviceRefusal } from '../fixtures/service-refusal'

/**
 * The checks of a request before it waits for the query thread, in their
 * order (options, chain, format): what passes is plain data naming its steps,
 * what fails is refused with the status the contract gives.
 */

const places = hostedWorkspaces().get('world')!.apis.get('places')!
const request = (rest: Partial<QueryRequest>): QueryRequest => ({ workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: {}, ...rest })
const check = (rest: Partial<QueryRequest>) => checkQuery(request(rest), 'world', places)
const refused = (rest: Partial<QueryRequest>) => serviceRefusal(() => check(rest))
const TRIPLES: Step[] = [
  { endpoint: 'search', parameters: { query: 'san' } },
  { endpoint: 'triples', parameters: {} },
]

describe('checkQuery', () => {
  it('gives the chain by endpoint name, context resolved, with the options resolved', () => {
    const checked = check({ steps: [{ context: { query: 'paris' } }, { endpoint: 'search', parameters: {} }, { endpoint: 'population', parameters: { min: '5' } }], options: { count: 3 } })
    expect(checked).toMatchObject({
      workspace: 'world',
      api: 'places',
      responseType: 'results',
      steps: [
        { endpoint: 'search', parameters: { query: 'paris' } },
        { endpoint: 'population', parameters: { min: '5' } },
      ],
    })
    expect(checked.options).toMatchObject({ count: 3, offset: 0, format: 'json' })
    // Plain data: it crosses to the query thread as it is.
    expect(structuredClone(checked)).toEqual(checked)
  })

  it('checks the options before the chain', () => {
    expect(refused({ steps: [], options: { count: 0 } })).toEqual({ status: 400, message: 'Option count must be a whole number from 1 to 100, not 0' })
    expect(refused({ steps: [] })).toEqual({ status: 400, message: 'The request names no endpoint; add /e/<endpoint> to the path' })
  })

  it('refuses with a 406 a format the response type, configuration or last endpoint cannot give', () => {
    expect(refused({ responseType: 'results,count', options: { format: 'csv' } })).toEqual({
      status: 406,
      message: 'format csv is not available for results,count, whose answer is a JSON array; use results for csv',
    })
    expect(refused({ options: { format: 'xml' } })).toEqual({ status: 406, message: 'format xml is not enabled for this configuration ("default"); use config=production or another format' })
    expect(check({ options: { format: 'xml', config: 'production' } }).options.format).toBe('xml')
    expect(refused({ options: { format: 'rdf' } })).toEqual({
      status: 406,
      message: 'format rdf is only for endpoints whose output is [STRING,STRING,STRING]; "search" gives [OBJ]',
    })
    expect(check({ steps: TRIPLES, options: { format: 'rdf' } }).steps.map((step) => step.endpoint)).toEqual(['search', 'triples'])
  })

  it('plans options/<facet> with the facet stacked last and its own filters named; multiselect leaves them out of the chain', () => {
    const steps: Step[] = [
      { endpoint: 'search', parameters: { query: 'san' } },
      { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } },
      { endpoint: 'continent:FILTER', parameters: { value: '1("Europe")' } },
    ]
    const single = check({ responseType: 'options', facet: 'country', steps })
    expect(single.steps.map((step) => step.endpoint)).toEqual(['search', 'country:FILTER', 'continent:FILTER', 'country'])
    expect(single).toMatchObject({ responseType: 'options', facet: { name: 'country', own: [{ value: '1("FR")' }] } })
    const multiple = check({ responseType: 'options', facet: 'country', steps, options: { multiselect: true } })
    expect(multiple.steps.map((step) => step.endpoint)).toEqual(['search', 'continent:FILTER', 'country'])
    expect(multiple).toMatchObject({ facet: { name: 'country', own: [{ value: '1("FR")' }] } })
  })

  it('refuses options/<facet> of an endpoint the API lacks or that lists no options', () => {
    expect(refused({ responseType: 'options', facet: 'planet' })).toEqual({
      status: 400,
      message: `no endpoint named "planet" in api "places" to list options of (it has: ${[...places.endpoints.keys()].join(', ')})`,
    })
    expect(refused({ responseType: 'options', facet: 'search' })).toEqual({
      status: 400,
      message: 'The endpoint "search" is a search endpoint, not a facet options endpoint, so it has no options to list',
    })
  })
})

describe('noSuchApi', () => {
  it('is a 404 naming what was asked for', () => {
    expect(serviceRefusal(() => {
      throw noSuchApi('world/nothing')
    })).toEqual({ status: 404, message: 'No such api: world/nothing' })
  })
})
