import { describe, expect, it } from 'vitest'
import { tableOf } from '../../src/service/formats/table'
import { answerOf, france, item, paris } from '../fixtures/service-answer'

/** The flat table the demo service's csv and xlsx answers share (src/service/formats/table.ts), worked out by hand on a city, its country and plain text. */

// Ranked from offset 10: a city and text; a country alone (the tuple one shorter); text where the first column holds objects.
const { page } = answerOf([item(0.9, paris, 'note'), item(0.4, france), item(0.1, 'text', 'other')], 10)

describe('tableOf', () => {
  it('gives an object column id, class and its attributes in the order first seen on the page, a text column its number', () => {
    const table = tableOf(page, 1)
    expect(table.header).toEqual(['rank', 'probability', '1.id', '1.class', '1.name', '1.country', '1.population', '1.capital', '1.altName', '1.continent', '2'])
    expect(table.rows).toEqual([
      // A reference is its target's id; an attribute the object lacks is empty.
      [11, 0.9, '2988507', 'city|capital', 'Paris', 'FR', 2_138_551, true, null, null, 'note'],
      [12, 0.4, 'FR', 'country', 'France', null, null, null, null, 'Europe', null],
      // Text in an object column, as a missing cell, leaves the object's cells empty.
      [13, 0.1, null, null, null, null, null, null, null, null, 'other'],
    ])
  })

  it('gives ids and classes only at level 0', () => {
    expect(tableOf(page, 0)).toEqual({
      header: ['rank', 'probability', '1.id', '1.class', '2'],
      rows: [
        [11, 0.9, '2988507', 'city|capital', 'note'],
        [12, 0.4, 'FR', 'country', null],
        [13, 0.1, null, null, 'other'],
      ],
    })
  })

  it('shows a reference opened at level 2 and more by its id: a cell holds one value', () => {
    expect(tableOf(page, 2)).toEqual(tableOf(page, 1))
    expect(tableOf(page, 3).rows[0]).toEqual([11, 0.9, '2988507', 'city|capital', 'Paris', 'FR', 2_138_551, true, null, null, 'note'])
  })

  it('gives rank and probability alone for an empty page', () => {
    expect(tableOf(answerOf([]).page, 1)).toEqual({ header: ['rank', 'probability'], rows: [] })
  })
})
