import { describe, expect, it } from 'vitest'
import type { OptionsResponse } from '../../src/shared/responses'
import { optionRows, optionsTitle, readable, selectedText, shownObject } from '../../src/shared/results/answer-view'

/** The text the answer views show for a result object (resultitem) and a facet's options (options/<facet>). */

const RLO = '\u202E'

describe('answer view', () => {
  it('a value as readable text: none as —, a referenced object by name and id, a list joined, anything deeper as JSON', () => {
    expect(readable(null)).toBe('—')
    expect(readable(undefined)).toBe('—')
    expect(readable(0)).toBe('0')
    expect(readable(false)).toBe('false')
    expect(readable({ id: 'u1', name: 'Ann' })).toBe('Ann (u1)')
    expect(readable({ id: 'u1' })).toBe('u1')
    expect(readable([1, { id: 'x' }, 'y'])).toBe('1, x, y')
    expect(readable({ w: 1, h: [2] })).toBe('{"w":1,"h":[2]}')
  })

  it('an object with neither id nor class shows its attributes alone', () => {
    expect(shownObject({ a: 1 })).toEqual({ id: null, classes: [], entries: [{ key: 'a', name: 'a', text: '1' }] })
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

  it('selected options the list leaves out come first, so none is hidden; nothing selected says so', () => {
    const body: OptionsResponse = {
      id: 'country:FILTER',
      selected: [
        { id: 'fr', score: 1, value: 'fr' },
        { id: 'zz', score: 1, value: 'zz', title: 'Elsewhere' },
      ],
      options: [
        { id: 'es', score: 3, value: 'es', title: 'Spain' },
        { id: 'fr', score: 2, value: 'fr', title: 'France' },
      ],
    }
    expect(optionRows(body).map(({ id, label, selected }) => [id, label, selected])).toEqual([
      ['zz', 'Elsewhere', true],
      ['es', 'Spain', false],
      ['fr', 'France', true],
    ])
    expect(selectedText(body)).toBe('Selected: fr, Elsewhere')
    expect(selectedText({ ...body, selected: [] })).toBe('Nothing selected')
    expect(optionsTitle(body)).toBe('country:FILTER')
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
})
