import { describe, expect, it } from 'vitest'
import { readableHeaders, writtenColumns } from '../../src/shared/export/headers'

/** An export's header, for a person: `name`, not `1.name`, and the rule for when two columns would read alike. */

describe('an export header', () => {
  it('names a one-object table by what each column holds: name, not 1.name', () => {
    expect(readableHeaders(['rank', 'probability', '1.id', '1.class', '1.name', '1.population'])).toEqual([
      'rank',
      'probability',
      'id',
      'class',
      'name',
      'population',
    ])
  })

  it('a plain value is "value"; two of them carry their tuple column as the grid shows it', () => {
    expect(readableHeaders(['rank', 'probability', '1'])).toEqual(['rank', 'probability', 'value'])
    expect(readableHeaders(['rank', '1', '2', '3'])).toEqual(['rank', '1. value', '2. value', '3. value'])
  })

  it('two objects: names both have carry the column number (1. name, 2. name), a name only one has stays bare', () => {
    expect(readableHeaders(['rank', 'probability', '1.id', '1.class', '1.name', '1.population', '2.id', '2.class', '2.name', '2'])).toEqual([
      'rank',
      'probability',
      '1. id',
      '1. class',
      '1. name',
      'population',
      '2. id',
      '2. class',
      '2. name',
      'value',
    ])
  })

  it('an attribute called rank leaves the rank column alone; names still alike get (2)', () => {
    expect(readableHeaders(['rank', 'probability', '1.id', '1.rank'])).toEqual(['rank', 'probability', 'id', '1. rank'])
    // An attribute called `id` gives the page a second `1.id`.
    expect(readableHeaders(['1.id', '1.class', '1.id'])).toEqual(['1. id', 'class', '1. id (2)'])
    expect(readableHeaders(['1.id', '1.id', 'id (2)'])).toEqual(['1. id', '1. id (2)', 'id (2)'])
    expect(readableHeaders(['id', '1.id', '1.id (2)'])).toEqual(['id', '1. id', 'id (2)'])
    expect(readableHeaders(['1.a.b', '1.'])).toEqual(['a.b', ''])
    // A hostile page of one name again and again, beside the names that would come next: every header unique all the same.
    const names = [...Array.from({ length: 8_000 }, () => 'x'), ...Array.from({ length: 8_000 }, (_, i) => `x (${i + 2})`)]
    expect(new Set(readableHeaders(names)).size).toBe(16_000)
  })

  it('writes the grid\'s columns in the grid\'s order (once each), or the whole union', () => {
    const union = ['rank', 'probability', '1.id', '1.class', '1.name', '1.population']
    expect(writtenColumns(union, ['rank', '1.name', '1.id', '1.name', '1.country'])).toEqual(['rank', '1.name', '1.id', '1.country'])
    expect(writtenColumns(union, null)).toEqual(union)
  })
})
