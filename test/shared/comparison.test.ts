import { describe, expect, it } from 'vitest'
import { answeredSide, comparison, failedSide, labelsByKey } from '../../src/shared/compare/comparison'
import { ComparisonSchema } from '../../src/shared/ipc/contract'

const item = (id: string, name: string) => ({ rank: 1, probability: 0.5, tuple: [{ id, class: ['city'], attributes: { name } }] })
const page = (...items: ReturnType<typeof item>[]) => ({ offset: 0, count: items.length, type: ['city'], items })
const statistics = { total: 120, stats: [{ cutoff: '0.5', numResults: 3 }, { cutoff: '0.1', numResults: 40 }, { cutoff: 'x', numResults: 'not a number' }] }

describe('a comparison of two sides', () => {
  const a = answeredSide('Demo · config default', { status: 200, body: [page(item('1', 'One'), item('2', 'Two'), item('3', 'Three')), statistics] }, 12.5, 10)
  const b = answeredSide('Demo · config production', { status: 200, body: [page(item('3', 'Three'), item('1', 'One'), item('4', 'Four')), { ...statistics, total: 99 }] }, 8, 10)

  it('reads each side: keys and labels to the depth, total, and the distribution for the chart', () => {
    expect(a).toEqual({
      label: 'Demo · config default',
      status: 200,
      error: null,
      total: 120,
      durationMs: 12.5,
      keys: ['1', '2', '3'],
      labels: ['One', 'Two', 'Three'],
      stats: [{ cutoff: '0.5', numResults: 3 }, { cutoff: '0.1', numResults: 40 }],
    })
    // A plain results page (no statistics) has no total; the depth cuts the list.
    expect(answeredSide('x', { status: 200, body: page(item('1', 'One'), item('2', 'Two')) }, 1, 1)).toMatchObject({ total: null, keys: ['1'], stats: [] })
  })

  it('gives the figures and the rank changes over both', () => {
    const result = ComparisonSchema.parse(comparison(10, a, b))
    expect(result.figures).toMatchObject({ overlap: 2, jaccard: 0.5 })
    expect(result.figures!.rbo).toBeGreaterThan(0)
    expect(result.figures!.rbo).toBeLessThan(1)
    expect(result.figures!.kendallTau).toBe(-1)
    expect(result.changes).toEqual([
      { key: '1', rankA: 1, rankB: 2, move: { kind: 'down', by: 1 } },
      { key: '2', rankA: 2, rankB: null, move: { kind: 'gone' } },
      { key: '3', rankA: 3, rankB: 1, move: { kind: 'up', by: 2 } },
      { key: '4', rankA: null, rankB: 3, move: { kind: 'new' } },
    ])
    expect(labelsByKey(result)).toEqual(new Map([['1', 'One'], ['2', 'Two'], ['3', 'Three'], ['4', 'Four']]))
  })

  it('has no figures when a side failed, and keeps the other side as it answered', () => {
    const failed = failedSide('Demo · config nope', 404, 'The service answered 404: No such workspace configuration: world/nope', 3)
    const result = ComparisonSchema.parse(comparison(10, a, failed))
    expect(result).toMatchObject({ figures: null, changes: [], a: { keys: ['1', '2', '3'] }, b: { status: 404, keys: [], total: null } })
    expect(comparison(10, failedSide('x', null, 'refused', 1), b).figures).toBeNull()
  })
})
