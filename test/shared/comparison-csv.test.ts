import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COMPARISON_CSV_COLUMNS, comparisonCsv, comparisonFileName } from '../../src/shared/compare/comparison-csv'
import { answeredSide, comparison, failedSide } from '../../src/shared/compare/comparison'
import { readCsv } from '../fixtures/csv'

const item = (id: string, name: string) => ({ rank: 1, probability: 0.5, tuple: [{ id, class: ['city'], attributes: { name } }] })
const page = (...items: ReturnType<typeof item>[]) => ({ offset: 0, count: items.length, type: ['city'], items })
const side = (label: string, ...items: ReturnType<typeof item>[]) => answeredSide(label, { status: 200, body: page(...items) }, 5, 10)

describe('the comparison as CSV', () => {
  const a = side('Demo · config default', item('1', 'One'), item('2', 'Two, "the second"'), item('3', '=HYPERLINK("x")'))
  const b = side('Demo · config production', item('3', '=HYPERLINK("x")'), item('1', 'One'), item('4', 'Şanlıurfa'))
  const result = comparison(10, a, b)

  it('is one header row and a row per rank change, in the table order, with the figures repeated in trailing columns', () => {
    const text = comparisonCsv(result)
    expect(text.startsWith('\uFEFF')).toBe(true)
    const rows = readCsv(text)
    expect(rows[0]).toEqual([...COMPARISON_CSV_COLUMNS])
    expect(rows).toHaveLength(1 + result.changes.length)
    // Every row as wide as the header: a spreadsheet sees one rectangular table.
    expect(new Set(rows.map((row) => row.length))).toEqual(new Set([COMPARISON_CSV_COLUMNS.length]))
    const context = ['10', 'Demo · config default', 'Demo · config production', '2', '0.5', String(Math.round(result.figures!.rbo * 1e6) / 1e6), '-1']
    expect(rows.slice(1)).toEqual([
      ['1', 'One', '1', '2', '↓1', ...context],
      ['2', 'Two, "the second"', '2', '', 'gone from B', ...context],
      // A label a spreadsheet would run as a formula is written as text.
      ['3', `'=HYPERLINK("x")`, '3', '1', '↑2', ...context],
      ['4', 'Şanlıurfa', '', '3', 'new in B', ...context],
    ])
  })

  it('leaves the figure cells empty where there are none (tau with fewer than two shared items, a failed side)', () => {
    const oneShared = comparison(10, side('A', item('1', 'One'), item('2', 'Two')), side('B', item('1', 'One')))
    const rows = readCsv(comparisonCsv(oneShared))
    expect(rows[1]!.at(-1)).toBe('')
    const failed = comparison(10, a, failedSide('B', 404, 'No such workspace configuration: world/nope', 3))
    expect(readCsv(comparisonCsv(failed))).toEqual([[...COMPARISON_CSV_COLUMNS]])
  })

  it('round-trips any labels and keys through a CSV parser', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\n', ' ', '1', '↑') })
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('x', 'y', '7', ',', '"') }), cell), { selector: (pair) => pair[0], maxLength: 6 }), (pairs) => {
        const left = side('A', ...pairs.map(([key, label]) => item(key, label)))
        const right = side('B', ...[...pairs].reverse().map(([key, label]) => item(key, label)))
        const compared = comparison(10, left, right)
        const rows = readCsv(comparisonCsv(compared))
        expect(rows.slice(1).map((row) => row[0])).toEqual(compared.changes.map((change) => change.key))
        // An empty label falls back to the key; any other comes back as written.
        expect(rows.slice(1).map((row) => row[1])).toEqual(compared.changes.map((change) => pairs.find(([key]) => key === change.key)![1] || change.key))
      }),
    )
  })

  it('is named for its depth and targets, as written (the one rule for file names)', () => {
    expect(comparisonFileName(result)).toBe('Top 10 of Demo · config default vs Demo · config production.csv')
    expect(comparisonFileName({ depth: 50, a: { ...a, label: 'Ünïcode / Staging' }, b: { ...b, label: '···' } })).toBe('Top 50 of Ünïcode Staging vs ···.csv')
  })
})
