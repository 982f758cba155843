import { describe, expect, it } from 'vitest'
import { itemKey, itemLabel, shownItem } from '../../src/shared/compare/item-key'
import { labelsByKey } from '../../src/shared/compare/comparison'
import type { ResultItem } from '../../src/shared/responses'
import { attributeColumns, cellShownText, cellText, columnsFor, rowText } from '../../src/shared/results/table'
import { rankDiffRows } from '../../src/shared/test-cases/run-view'

/**
 * Where server values are shown, a bidi override reads as a visible escape; where they are used, they stay as sent.
 * Each view's own cases are beside its module: answer-view, detail, facet-options (results), entry-text (history).
 */

const RLO = '\u202E'
const spoofed: ResultItem = {
  rank: 1,
  probability: 0.5,
  tuple: [{ id: `7${RLO}01`, class: ['file'], attributes: { name: `Invoice${RLO}txt.exe`, [`size${RLO}`]: 3 } }],
}

describe('bidi controls in shown server values', () => {
  it('shows grid cells and attribute headers escaped, and copies them as sent', () => {
    const columns = columnsFor([spoofed])
    const name = columns.find((column) => column.attribute === 'name')!
    const id = columns.find((column) => column.kind === 'id')!
    expect(cellShownText(spoofed, name)).toBe('Invoice⟨U+202E⟩txt.exe')
    expect(cellShownText(spoofed, id)).toBe('7⟨U+202E⟩01')
    expect(cellText(spoofed, name)).toBe(`Invoice${RLO}txt.exe`)
    expect(rowText(spoofed, columns)).toContain(`Invoice${RLO}txt.exe`)
    const size = columns.find((column) => column.attribute === `size${RLO}`)!
    expect(size.label).toBe('size⟨U+202E⟩')
    expect(size.key).toBe(`1.size${RLO}`)
    expect(attributeColumns([spoofed]).map((column) => column.label)).toEqual(['name', 'size⟨U+202E⟩'])
  })

  it('leaves Arabic names in the grid as they are', () => {
    const item: ResultItem = { rank: 1, probability: 1, tuple: [{ id: '1', class: ['city'], attributes: { name: 'صنعاء' } }] }
    const name = columnsFor([item]).find((column) => column.attribute === 'name')!
    expect(cellShownText(item, name)).toBe('صنعاء')
  })

  it('keys and labels items as sent, and shows them escaped in the rank tables', () => {
    expect(itemKey(spoofed)).toBe(`7${RLO}01`)
    expect(itemLabel(spoofed)).toBe(`Invoice${RLO}txt.exe`)
    expect(shownItem(`7${RLO}01`, `Invoice${RLO}txt.exe`)).toEqual({ label: 'Invoice⟨U+202E⟩txt.exe', key: '7⟨U+202E⟩01', distinct: true })
    expect(shownItem(`7${RLO}01`, undefined)).toEqual({ label: '7⟨U+202E⟩01', key: '7⟨U+202E⟩01', distinct: false })
    expect(shownItem('71137', 'Sanaa')).toEqual({ label: 'Sanaa', key: '71137', distinct: true })
    const side = { keys: [`7${RLO}01`], labels: [`Invoice${RLO}txt.exe`] }
    // The CSV export and the command line read labelsByKey: as sent.
    expect(labelsByKey({ a: side, b: side } as never).get(`7${RLO}01`)).toBe(`Invoice${RLO}txt.exe`)
  })

  it("shows a test's rank diff escaped, keyed by the key as sent", () => {
    const move = { kind: 'new' } as const
    const rows = rankDiffRows({
      changes: [
        { key: `7${RLO}01`, rankA: null, rankB: 1, move },
        { key: `x${RLO}`, rankA: null, rankB: 2, move },
      ],
      labels: { [`7${RLO}01`]: `Invoice${RLO}txt.exe`, [`x${RLO}`]: `x${RLO}` },
    } as never)
    expect(rows.map(({ key, keyText, label }) => ({ key, keyText, label }))).toEqual([
      { key: `7${RLO}01`, keyText: '7⟨U+202E⟩01', label: 'Invoice⟨U+202E⟩txt.exe' },
      { key: `x${RLO}`, keyText: 'x⟨U+202E⟩', label: '' },
    ])
  })
})
