import { describe, expect, it } from 'vitest'
import { Ref, compareIds, type DataObject } from '../../src/service/dataset/model'

describe('compareIds', () => {
  it('orders ids as strings, as the dataset sorts them, not as numbers', () => {
    expect(['99', '1000', '1', 'B', 'a'].sort(compareIds)).toEqual(['1', '1000', '99', 'B', 'a'])
    expect([compareIds('10', '9'), compareIds('x', 'x'), compareIds('b', 'a')]).toEqual([-1, 0, 1])
  })
})

describe('Ref', () => {
  it('points straight at its target object', () => {
    const country: DataObject = { id: 'FR', class: ['country'], attributes: { name: 'France' } }
    expect(new Ref(country).target).toBe(country)
  })
})
