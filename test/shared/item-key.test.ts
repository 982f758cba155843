import { describe, expect, it } from 'vitest'
import { itemKey, itemLabel } from '../../src/shared/compare/item-key'

describe('item keys and labels', () => {
  const city = { tuple: [{ id: '2988507', class: ['city'], attributes: { name: 'Paris' } }] }

  it('key an item by its first column id, with its name as the label', () => {
    expect(itemKey(city)).toBe('2988507')
    expect(itemLabel(city)).toBe('Paris')
  })

  it('read homogeneousArrays tuples in column order', () => {
    const tuple = { '2': 'x', '1': { id: 'a', class: [] } }
    expect(itemKey({ tuple })).toBe('a')
  })

  it('key a row of plain values by the whole tuple, so two triples with the same subject stay apart', () => {
    const one = { tuple: ['Paris', 'country', 'FR'] }
    const two = { tuple: ['Paris', 'population', '2138551'] }
    expect(itemKey(one)).not.toBe(itemKey(two))
    expect(itemLabel(one)).toBe('Paris · country · FR')
  })

  it('fall back to the key when an object has no name', () => {
    expect(itemLabel({ tuple: [{ id: 'q1', class: [] }] })).toBe('q1')
  })
})
