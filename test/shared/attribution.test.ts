import { describe, expect, it } from 'vitest'
import { attributionRows, templatePrefixes } from '../../src/shared/experiments/attribution'
import type { QueryRequest } from '../../src/shared/query/model'

const TEMPLATE: QueryRequest = {
  workspace: 'demo',
  api: 'products',
  steps: [
    { endpoint: 'search', parameters: { query: '{{query}}' } },
    { context: { lang: 'en' } },
    { endpoint: 'country:FILTER', parameters: { value: 'NL' } },
  ],
  responseType: 'results',
  options: { config: 'production' },
}

describe('templatePrefixes', () => {
  it('cuts a three-step template after each step', () => {
    const prefixes = templatePrefixes(TEMPLATE)
    expect(prefixes.map(({ steps, label }) => [steps, label])).toEqual([
      [1, '1: search'],
      [2, '1–2: + context'],
      [3, '1–3: + country:FILTER'],
    ])
    expect(prefixes[0]!.request).toEqual({ ...TEMPLATE, steps: [TEMPLATE.steps[0]] })
    expect(prefixes[2]!.request).toEqual(TEMPLATE)
    expect(prefixes[1]!.request.options).toEqual({ config: 'production' })
  })

  it('labels each endpoint by name, and lists no cut of context steps alone', () => {
    const filters: QueryRequest = {
      ...TEMPLATE,
      steps: [
        { context: { lang: 'en' } },
        { endpoint: 'search', parameters: { query: '{{query}}' } },
        { endpoint: 'country:FILTER', parameters: { value: 'NL' } },
        { endpoint: 'year:FILTER', parameters: { value: '2026' } },
      ],
    }
    expect(templatePrefixes(filters).map(({ steps, label }) => [steps, label])).toEqual([
      [2, '1–2: search'],
      [3, '1–3: + country:FILTER'],
      [4, '1–4: + year:FILTER'],
    ])
    expect(templatePrefixes({ ...TEMPLATE, steps: [] })).toEqual([])
  })
})

describe('attributionRows', () => {
  it('gives each step its means and the change from the step before', () => {
    const rows = attributionRows(
      [
        { label: '1: search', means: { 'ndcg@10': 0.4, 'p@10': null } },
        { label: '1–2: + country:FILTER', means: { 'ndcg@10': 0.55, 'p@10': 0.2 } },
        { label: '1–3: + year:FILTER', means: { 'ndcg@10': 0.5, 'p@10': 0.3 } },
      ],
      ['ndcg@10', 'p@10', 'ap'],
    )
    expect(rows.map((row) => row.label)).toEqual(['1: search', '1–2: + country:FILTER', '1–3: + year:FILTER'])
    expect(rows[0]).toEqual({ label: '1: search', means: { 'ndcg@10': 0.4, 'p@10': null, ap: null }, change: { 'ndcg@10': null, 'p@10': null, ap: null } })
    expect(rows[1]!.change['ndcg@10']).toBeCloseTo(0.15, 12)
    expect(rows[1]!.change['p@10']).toBeNull() // the step before has no P@10
    expect(rows[2]!.change['ndcg@10']).toBeCloseTo(-0.05, 12)
    expect(rows[2]!.change['p@10']).toBeCloseTo(0.1, 12)
    expect(rows[2]!.change.ap).toBeNull()
    expect(attributionRows([], ['ndcg@10'])).toEqual([])
  })
})
