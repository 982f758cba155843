import { describe, expect, it } from 'vitest'
import type { ResultItem } from '../../src/shared/responses'
import { detailEntries } from '../../src/shared/results/detail'

/** A result item laid out for the row detail: every field of every tuple column, nested objects opened, nothing a cell shortens lost. */

const RLO = '\u202E'

const shape = (item: ResultItem) => detailEntries(item).map(({ path, label, depth, text }) => [path, label, depth, text])

describe('detail entries', () => {
  it('rank and probability first, then the tuple: id, class, each attribute, nested objects and lists of objects opened a level deeper', () => {
    const item: ResultItem = {
      rank: 3,
      probability: 0.25,
      tuple: [
        {
          id: 'c1',
          class: ['city', 'place'],
          attributes: { name: 'Sanaa', tags: ['a', 'b'], country: { id: 'ye', class: ['country'], attributes: { name: 'Yemen' } }, sizes: [{ w: 1 }, { w: 2 }], none: null },
        },
      ],
    }
    expect(shape(item)).toEqual([
      ['rank', 'rank', 0, '3'],
      ['probability', 'probability', 0, '0.25'],
      ['1', 'tuple', 0, null],
      ['1.id', 'id', 1, 'c1'],
      ['1.class', 'class', 1, 'city, place'],
      ['1.name', 'name', 1, 'Sanaa'],
      ['1.tags', 'tags', 1, 'a, b'],
      ['1.country', 'country', 1, null],
      ['1.country.id', 'id', 2, 'ye'],
      ['1.country.class', 'class', 2, 'country'],
      ['1.country.name', 'name', 2, 'Yemen'],
      ['1.sizes', 'sizes', 1, null],
      ['1.sizes.0', '[1]', 2, null],
      ['1.sizes.0.w', 'w', 3, '1'],
      ['1.sizes.1', '[2]', 2, null],
      ['1.sizes.1.w', 'w', 3, '2'],
      ['1.none', 'none', 1, ''],
    ])
  })

  it('a tuple of several columns labels each, plain values as they are', () => {
    const item: ResultItem = { rank: 1, probability: 1, tuple: ['x', 42, null] }
    expect(shape(item)).toEqual([
      ['rank', 'rank', 0, '1'],
      ['probability', 'probability', 0, '1'],
      ['1', 'column 1', 0, 'x'],
      ['2', 'column 2', 0, '42'],
      ['3', 'column 3', 0, ''],
    ])
  })

  it('shows the row detail escaped (names, values, paths), and keeps the text it copies as sent', () => {
    const spoofed: ResultItem = {
      rank: 1,
      probability: 0.5,
      tuple: [{ id: `7${RLO}01`, class: ['file'], attributes: { name: `Invoice${RLO}txt.exe`, [`size${RLO}`]: 3 } }],
    }
    const entries = detailEntries(spoofed)
    const name = entries.find((entry) => entry.path === '1.name')!
    expect(name).toMatchObject({ label: 'name', text: `Invoice${RLO}txt.exe`, shown: 'Invoice⟨U+202E⟩txt.exe' })
    expect(entries.find((entry) => entry.path === '1.id')).toMatchObject({ text: `7${RLO}01`, shown: '7⟨U+202E⟩01' })
    expect(entries.find((entry) => entry.path === `1.size${RLO}`)).toMatchObject({ label: 'size⟨U+202E⟩', shownPath: '1.size⟨U+202E⟩', shown: '3' })
    expect(entries.find((entry) => entry.path === '1')).toMatchObject({ text: null, shown: null })
  })
})
