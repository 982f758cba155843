import { describe, expect, it } from 'vitest'
import { itemKey, itemLabel, shownItem } from '../../src/shared/compare/item-key'
import { labelsByKey } from '../../src/shared/compare/comparison'
import { fullUrl, shortUrl, statusTitle } from '../../src/shared/history/entry-text'
import type { OptionsResponse, ResultItem } from '../../src/shared/responses'
import { optionRows, optionsTitle, readable, selectedText, shownObject } from '../../src/shared/results/answer-view'
import { detailEntries } from '../../src/shared/results/detail'
import { shownFacetOption } from '../../src/shared/results/facet-options'
import { attributeColumns, cellShownText, cellText, columnsFor, rowText } from '../../src/shared/results/table'
import { rankDiffRows } from '../../src/shared/test-cases/run-view'

/** Where server values are shown, a bidi override reads as a visible escape; where they are used, they stay as sent. */

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

  it('shows the row detail escaped (names, values, paths), and keeps the text it copies as sent', () => {
    const entries = detailEntries(spoofed)
    const name = entries.find((entry) => entry.path === '1.name')!
    expect(name).toMatchObject({ label: 'name', text: `Invoice${RLO}txt.exe`, shown: 'Invoice⟨U+202E⟩txt.exe' })
    expect(entries.find((entry) => entry.path === '1.id')).toMatchObject({ text: `7${RLO}01`, shown: '7⟨U+202E⟩01' })
    expect(entries.find((entry) => entry.path === `1.size${RLO}`)).toMatchObject({ label: 'size⟨U+202E⟩', shownPath: '1.size⟨U+202E⟩', shown: '3' })
    expect(entries.find((entry) => entry.path === '1')).toMatchObject({ text: null, shown: null })
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

  it("shows a facet option's label and tooltip escaped", () => {
    expect(shownFacetOption({ id: `ye${RLO}01`, label: `Invoice${RLO}txt.exe` })).toEqual({
      label: 'Invoice⟨U+202E⟩txt.exe',
      title: 'Invoice⟨U+202E⟩txt.exe (ye⟨U+202E⟩01)',
    })
    expect(shownFacetOption({ id: `x${RLO}`, label: `x${RLO}` })).toEqual({ label: 'x⟨U+202E⟩', title: 'x⟨U+202E⟩' })
    expect(shownFacetOption({ id: 'YE', label: 'اليمن' })).toEqual({ label: 'اليمن', title: 'اليمن (YE)' })
  })

  it('shows a result object (id, classes, attribute names and values, referenced objects) escaped', () => {
    const object = {
      id: `7${RLO}01`,
      class: [`file${RLO}`],
      name: `Invoice${RLO}txt.exe`,
      [`size${RLO}`]: 3,
      owner: { id: `u${RLO}1`, name: `Ann${RLO}exe` },
      tags: [`a${RLO}`, 'b'],
      city: 'صنعاء',
    }
    // readable gives the value as sent; only what is shown is escaped.
    expect(readable(object.owner)).toBe(`Ann${RLO}exe (u${RLO}1)`)
    const shown = shownObject(object)
    expect(shown.id).toBe('7⟨U+202E⟩01')
    expect(shown.classes).toEqual(['file⟨U+202E⟩'])
    expect(shown.entries).toEqual([
      { key: 'name', name: 'name', text: 'Invoice⟨U+202E⟩txt.exe' },
      { key: `size${RLO}`, name: 'size⟨U+202E⟩', text: '3' },
      { key: 'owner', name: 'owner', text: 'Ann⟨U+202E⟩exe (u⟨U+202E⟩1)' },
      { key: 'tags', name: 'tags', text: 'a⟨U+202E⟩, b' },
      { key: 'city', name: 'city', text: 'صنعاء' },
    ])
    expect(shownObject({ class: `a${RLO} b` })).toEqual({ id: null, classes: ['a⟨U+202E⟩', 'b'], entries: [] })
  })

  it("shows a facet's options answer escaped, and keeps each option's id as sent", () => {
    const body: OptionsResponse = {
      id: `country${RLO}`,
      selected: [{ id: `ye${RLO}01`, score: 1, value: `ye${RLO}01`, title: `Invoice${RLO}txt.exe` }],
      options: [{ id: `fr${RLO}`, score: 2, value: `fr${RLO}` }],
    }
    expect(optionsTitle(body)).toBe('country⟨U+202E⟩')
    expect(optionsTitle({ ...body, title: `Land${RLO}` })).toBe('Land⟨U+202E⟩')
    expect(selectedText(body)).toBe('Selected: Invoice⟨U+202E⟩txt.exe')
    expect(optionRows(body).map(({ id, value, label, idText, selected }) => ({ id, value, label, idText, selected }))).toEqual([
      { id: `ye${RLO}01`, value: `ye${RLO}01`, label: 'Invoice⟨U+202E⟩txt.exe', idText: 'ye⟨U+202E⟩01', selected: true },
      { id: `fr${RLO}`, value: `fr${RLO}`, label: 'fr⟨U+202E⟩', idText: 'fr⟨U+202E⟩', selected: false },
    ])
  })

  it("shows History's URLs and a failed run's message escaped", () => {
    // A parsed URL comes back percent-encoded, which cannot reorder anything; one that does not parse is shown as recorded.
    expect(shortUrl(`http://127.0.0.1:1/w/api/search?query=a${RLO}b`)).toBe('/w/api/search?query=a%E2%80%AEb')
    expect(shortUrl(`not a URL ${RLO}`)).toBe('not a URL ⟨U+202E⟩')
    expect(fullUrl(`http://h/${RLO}`)).toBe('http://h/⟨U+202E⟩')
    expect(statusTitle({ error: { code: 'http', message: `Not found: Invoice${RLO}txt.exe` } })).toBe('Not found: Invoice⟨U+202E⟩txt.exe')
    expect(statusTitle({ error: null })).toBe('HTTP status')
  })
})
