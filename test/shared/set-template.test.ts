import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { fillTemplate, holdsPlaceholder, MAX_EVAL_DEPTH, PAGE_LIMIT, resolveTemplate, setQueryPages } from '../../src/shared/relevance/set-template'
import { makeSet } from '../fixtures/judgment-sets'

const TEMPLATE: QueryRequest = {
  workspace: 'demo',
  api: 'places',
  steps: [
    { endpoint: 'search', parameters: { query: '{{query}}', fields: 'name' } },
    { context: { lang: 'en', note: 'for {{query}} and {{query}}' } },
  ],
  responseType: 'statistics',
  options: { config: 'production', format: 'xml', offset: 40, count: 5 },
}
const FIXED: QueryRequest = { ...TEMPLATE, steps: [{ endpoint: 'search', parameters: { query: 'paris' } }] }

describe('resolveTemplate', () => {
  const workspace = {
    queries: [
      { name: 'cities', connection: 'demo', request: TEMPLATE },
      { name: 'paris only', connection: 'demo', request: FIXED },
    ],
  }

  it("finds the set's saved query and its connection", () => {
    expect(resolveTemplate(workspace, makeSet([]))).toEqual({ connection: 'demo', request: TEMPLATE, error: null })
  })

  it('says why a set cannot run: its template is gone, or holds no {{query}}', () => {
    expect(resolveTemplate(workspace, makeSet([], [], { query: 'towns' })).error).toBe('The set\'s template, the saved query "towns", is not in the workspace.')
    expect(resolveTemplate(workspace, makeSet([], [], { query: 'paris only' }))).toEqual({
      connection: 'demo',
      request: FIXED,
      error:
        "The set's template holds no {{query}}: every query would ask the same thing. Put {{query}} in a parameter value (for example the search step's query).",
    })
  })
})

describe('holdsPlaceholder and fillTemplate', () => {
  it('finds {{query}} in a parameter or a context value', () => {
    expect(holdsPlaceholder(TEMPLATE)).toBe(true)
    expect(holdsPlaceholder({ ...FIXED, steps: [{ context: { q: '{{query}}' } }] })).toBe(true)
    expect(holdsPlaceholder(FIXED)).toBe(false)
    expect(holdsPlaceholder({ ...FIXED, steps: [{ endpoint: 'search', parameters: { query: '{{ query }}' } }] })).toBe(false)
  })

  it('puts the text in place of every {{query}}, as written, leaving the template as it was', () => {
    const filled = fillTemplate(TEMPLATE, 'café $& $1')
    expect(filled.steps).toEqual([
      { endpoint: 'search', parameters: { query: 'café $& $1', fields: 'name' } },
      { context: { lang: 'en', note: 'for café $& $1 and café $& $1' } },
    ])
    expect(filled.options).toEqual(TEMPLATE.options)
    expect(TEMPLATE.steps[0]).toEqual({ endpoint: 'search', parameters: { query: '{{query}}', fields: 'name' } })
  })
})

describe('setQueryPages', () => {
  it('asks the top results as JSON pages of at most 100, each from where the last ended', () => {
    expect(PAGE_LIMIT).toBe(100)
    const pages = setQueryPages(TEMPLATE, 'rome', 250)
    expect(pages.map((page) => [page.responseType, page.options.count, page.options.offset])).toEqual([
      ['results', 100, undefined],
      ['results', 100, 100],
      ['results', 50, 200],
    ])
    // The template's own format and offset are not sent; its config is, and the text is filled in.
    expect(pages[0]!.options).toEqual({ config: 'production', count: 100 })
    expect(pages[2]!.steps[0]).toEqual({ endpoint: 'search', parameters: { query: 'rome', fields: 'name' } })
  })

  it('asks the target of a run, one page for a depth of 100 or less, and none for a depth of 0', () => {
    const [page, ...more] = setQueryPages(TEMPLATE, 'rome', 10, { workspace: 'staging', api: 'places2', config: 'candidate', version: '5' })
    expect(more).toEqual([])
    expect(page).toMatchObject({ workspace: 'staging', api: 'places2', version: '5', options: { config: 'candidate', count: 10 } })
    expect(setQueryPages(TEMPLATE, 'rome', 0)).toEqual([])
    expect(setQueryPages(TEMPLATE, 'rome', MAX_EVAL_DEPTH)).toHaveLength(10)
  })
})
