import { describe, expect, it } from 'vitest'
import { Interner } from '../../src/service/dataset/interner'
import type { DataObject } from '../../src/service/dataset/model'

const object = (id: string): DataObject => ({ id, class: ['country'], attributes: { name: id } })

describe('Interner', () => {
  it('gives each object an ordinal in the order first seen, and the same one again', () => {
    const interner = new Interner()
    const [fr, de] = [object('FR'), object('DE')]
    expect([interner.ordinalOf(fr), interner.ordinalOf(de), interner.ordinalOf(fr)]).toEqual([0, 1, 0])
    expect(interner.objects).toEqual([fr, de])
    expect([...interner.ordinals]).toEqual([
      ['FR', 0],
      ['DE', 1],
    ])
  })

  it('knows an object by its id: a second object with that id gets the first one ordinal and is not kept', () => {
    const interner = new Interner()
    const first = object('FR')
    interner.ordinalOf(first)
    expect(interner.ordinalOf(object('FR'))).toBe(0)
    expect(interner.objects).toHaveLength(1)
    expect(interner.objects[0]).toBe(first)
  })
})
