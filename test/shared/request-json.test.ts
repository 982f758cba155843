import { describe, expect, it } from 'vitest'
import { readRequestJson } from '../../src/shared/query/request-json'
import { ISSUE_EXAMPLE } from '../fixtures/issue-example'

const GOOD = ISSUE_EXAMPLE

function problemsOf(text: string) {
  const result = readRequestJson(text)
  if (result.ok) throw new Error('expected problems')
  return result.problems
}

describe('readRequestJson', () => {
  it('reads the model example of the issue', () => {
    expect(readRequestJson(JSON.stringify(GOOD))).toEqual({ ok: true, request: GOOD })
  })

  it('names the path of each bad field', () => {
    const text = JSON.stringify({ ...GOOD, responseType: 'rows', options: { count: '10', colour: 'red' }, steps: [{ endpoint: 'search', parameters: { query: 5 } }, { context: [] }, {}] })
    expect(problemsOf(text)).toEqual([
      { field: 'steps[0].parameters.query', message: 'expected string, received number' },
      { field: 'steps[1].context', message: 'expected record, received array' },
      { field: 'steps[2]', message: 'a step is either an endpoint step {"endpoint", "parameters"} or a context step {"context"}' },
      { field: 'responseType', message: 'Invalid option: expected one of "results"|"statistics"|"count"|"results,count"|"resultpage"|"resultitem"|"options"' },
      { field: 'options.count', message: 'expected number, received string' },
      { field: 'options', message: 'Unrecognized key: "colour"' },
    ])
  })

  it('says which field is missing', () => {
    const { workspace: _, ...rest } = GOOD
    expect(problemsOf(JSON.stringify({ ...rest, steps: [{ endpoint: 'x' }] }))).toEqual([{ field: 'workspace', message: 'is missing (expected string)' }])
  })

  it('reads a model that leaves out parameters and options, as the client libraries\' Query does, into the full form', () => {
    const text = '{"workspace":"w","api":"a","responseType":"count","steps":[{"endpoint":"search","parameters":{"query":"x"}},{"endpoint":"countries"}]}'
    expect(readRequestJson(text)).toEqual({
      ok: true,
      request: {
        workspace: 'w',
        api: 'a',
        steps: [
          { endpoint: 'search', parameters: { query: 'x' } },
          { endpoint: 'countries', parameters: {} },
        ],
        responseType: 'count',
        options: {},
      },
    })
  })

  it('gives every defaulted record its own object', () => {
    const read = readRequestJson('{"workspace":"w","api":"a","responseType":"results","steps":[{"endpoint":"s"},{"endpoint":"t"}]}')
    if (!read.ok) throw new Error('expected a request')
    const [first, second] = read.request.steps as { parameters: Record<string, string> }[]
    first!.parameters.x = '1'
    expect(second!.parameters).toEqual({})
  })

  it('reads the facet of an options request, and the new options', () => {
    const text = '{"workspace":"w","api":"a","responseType":"options","facet":"country","steps":[],"options":{"multiselect":true,"rank":2,"column":1}}'
    expect(readRequestJson(text)).toMatchObject({ ok: true, request: { responseType: 'options', facet: 'country', options: { multiselect: true, rank: 2, column: 1 } } })
  })

  it('rejects a parameter given twice with different values, naming both', () => {
    const text = '{"workspace":"w","api":"a","responseType":"results","options":{},"steps":[{"endpoint":"search","parameters":{"query":"a","query":"b"}}]}'
    expect(problemsOf(text)).toEqual([
      { field: 'steps[0].parameters.query', message: 'Step 1 (search): parameter "query" is given twice with different values ("a" and "b")' },
    ])
  })

  it('reads a key given twice with the same value', () => {
    const text = '{"workspace":"w","workspace":"w","api":"a","responseType":"results","options":{},"steps":[{"context":{"l":"en","l":"en"}},{"endpoint":"s","parameters":{}}]}'
    expect(readRequestJson(text).ok).toBe(true)
  })

  it('rejects any other key given twice with different values', () => {
    const text = '{"workspace":"w","workspace":"v","api":"a","responseType":"results","options":{"count":1,"count":2},"steps":[]}'
    expect(problemsOf(text)).toEqual([
      { field: 'workspace', message: '"workspace" is given twice with different values ("w" and "v")' },
      { field: 'options.count', message: '"count" is given twice with different values (1 and 2)' },
    ])
  })

  it('refuses __proto__ as a name, which JSON readers cannot keep safely', () => {
    const text = '{"workspace":"w","api":"a","responseType":"results","options":{},"steps":[{"endpoint":"s","parameters":{"__proto__":"x"}}]}'
    expect(problemsOf(text)[0]).toMatchObject({ field: 'steps[0].parameters.__proto__' })
  })

  it('reports bad JSON', () => {
    expect(problemsOf('{"workspace":')[0]).toMatchObject({ field: '(json)', message: expect.stringMatching(/^not valid JSON: /) })
  })

  it('takes a top-level base apart when asked to', () => {
    expect(readRequestJson(JSON.stringify({ base: 'http://h', ...GOOD }), { withBase: true })).toEqual({ ok: true, request: GOOD, base: 'http://h' })
    expect(readRequestJson(JSON.stringify({ base: 'http://h', ...GOOD }))).toMatchObject({ ok: false, problems: [{ field: '(request)', message: 'Unrecognized key: "base"' }] })
    expect(readRequestJson(JSON.stringify({ base: 1, ...GOOD }), { withBase: true })).toEqual({
      ok: false,
      problems: [{ field: 'base', message: 'expected string (the query URL), received number' }],
    })
  })
})
