import { describe, expect, it } from 'vitest'
import { MAX_ENDPOINTS, MAX_VALUE_LENGTH, planChain, type PlannedStep } from '../../src/service/query/chain-plan'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'
import type { Step } from '../../src/shared/query/model'
import { serviceRefusal } from '../fixtures/service-refusal'

/**
 * Planning a request's chain before anything runs: context parameters reach
 * every later endpoint that defines them, and whatever can be refused without
 * data is refused here with a 400 that names the parameter and the rule.
 */

const places = hostedWorkspaces().get('world')!.apis.get('places')!
const step = (endpoint: string, parameters: Record<string, string> = {}): Step => ({ endpoint, parameters })
const plan = (steps: Step[]) => planChain(steps, places).map(({ endpoint, parameters }: PlannedStep) => [endpoint.name, parameters])
const refused = (steps: Step[]) => serviceRefusal(() => planChain(steps, places))
const badRequest = (message: string) => ({ status: 400, message })

describe('planChain', () => {
  it('plans the endpoints in order with their parameters', () => {
    expect(plan([step('search', { query: 'san' }), step('population', { min: '5' }), step('sort', { by: 'name' })])).toEqual([
      ['search', { query: 'san' }],
      ['population', { min: '5' }],
      ['sort', { by: 'name' }],
    ])
  })

  it('gives a context parameter to every later endpoint that defines it; an explicit /p/ wins', () => {
    const steps: Step[] = [{ context: { query: 'paris', min: '100', lang: 'en' } }, step('search'), step('population', { min: '5' }), { context: { by: 'name' } }, step('sort')]
    expect(plan(steps)).toEqual([
      ['search', { query: 'paris' }],
      ['population', { min: '5' }],
      ['sort', { by: 'name' }],
    ])
  })

  it('refuses a request without an endpoint, and one stacking more than the bound', () => {
    expect(refused([])).toEqual(badRequest('The request names no endpoint; add /e/<endpoint> to the path'))
    expect(refused([{ context: { query: 'x' } }])).toEqual(badRequest('The request names no endpoint; add /e/<endpoint> to the path'))
    const stacked = (n: number) => [step('search', { query: 'san' }), ...Array.from({ length: n - 1 }, () => step('population'))]
    expect(plan(stacked(MAX_ENDPOINTS))).toHaveLength(MAX_ENDPOINTS)
    expect(refused(stacked(MAX_ENDPOINTS + 1))).toEqual(badRequest(`The request stacks ${MAX_ENDPOINTS + 1} endpoints; at most ${MAX_ENDPOINTS} may be stacked`))
  })

  it('refuses an endpoint the API lacks, naming those it has', () => {
    expect(refused([step('nope')])).toEqual(badRequest(`no endpoint named "nope" in api "places" (it has: ${[...places.endpoints.keys()].join(', ')})`))
  })

  it('refuses an endpoint that is not stackable anywhere but first', () => {
    expect(plan([step('city', { id: '1' })])).toEqual([['city', { id: '1' }]])
    expect(refused([step('search', { query: 'san' }), step('city', { id: '1' })])).toEqual(
      badRequest('The endpoint "city" is not stackable, so it must be the first endpoint of the request'),
    )
  })

  it('refuses a parameter the endpoint does not have, and a required one left out', () => {
    expect(refused([step('search', { q: 'san' })])).toEqual(badRequest('The endpoint "search" has no parameter "q" (it has: query)'))
    expect(refused([step('countries', { q: 'x' })])).toEqual(badRequest('The endpoint "countries" has no parameter "q" (it takes none)'))
    expect(refused([step('search')])).toEqual(badRequest('The parameter "query" of endpoint "search" is required'))
    // A context parameter no endpoint defines is not an error: it reaches none.
    expect(plan([{ context: { q: 'x' } }, step('countries')])).toEqual([['countries', {}]])
  })

  it(`refuses a value longer than ${MAX_VALUE_LENGTH} characters or holding a control character, in a parameter or the context`, () => {
    expect(plan([step('search', { query: 'a'.repeat(MAX_VALUE_LENGTH) })])).toHaveLength(1)
    expect(refused([step('search', { query: 'a'.repeat(MAX_VALUE_LENGTH + 1) })])).toEqual(
      badRequest(`The parameter "query" of endpoint "search" is ${MAX_VALUE_LENGTH + 1} characters long; at most ${MAX_VALUE_LENGTH} are allowed`),
    )
    expect(refused([step('search', { query: 'a\u0000b' })])).toEqual(badRequest('The parameter "query" of endpoint "search" holds a control character, which no value may contain'))
    expect(refused([{ context: { lang: 'e\u007fn' } }, step('countries')])).toEqual(
      badRequest('The context parameter "lang" holds a control character, which no value may contain'),
    )
  })
})
