import { describe, expect, it } from 'vitest'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { applyCutoff, entityView, facetOption, pageOf, renderObject, renderTuple, resultPageBody, resultsBody, statisticsBody } from '../../src/service/query/render'
import type { ResultSet } from '../../src/service/query/result-set'
import { france, item, paris } from '../fixtures/service-answer'

/** Result sets in the JSON shapes of the seed and of the official clients, worked out by hand on the three objects of test/fixtures/service-answer.ts. */


describe('renderObject', () => {
  it('gives id and class at level 0, attributes at 1 with references as ids, and expands a reference a step a level', () => {
    expect(renderObject(paris, 0)).toEqual({ id: '2988507', class: ['city', 'capital'] })
    expect(renderObject(paris, 1)).toEqual({ id: '2988507', class: ['city', 'capital'], attributes: { name: 'Paris', country: 'FR', population: 2_138_551, capital: true, altName: null } })
    expect(renderObject(paris, 2).attributes).toMatchObject({ country: { id: 'FR', class: ['country'], attributes: { name: 'France', continent: 'Europe' } } })
    expect(renderObject(paris, 3).attributes).toMatchObject({ country: { attributes: { continent: { id: 'Europe', class: ['continent'], attributes: { name: 'Europe' } } } } })
  })
})

describe('renderTuple', () => {
  it('gives the cells as a list, or keyed by column number from 1 for homogeneous arrays', () => {
    expect(renderTuple(item(1, paris, 'text'), 0, false)).toEqual([{ id: '2988507', class: ['city', 'capital'] }, 'text'])
    expect(renderTuple(item(1, paris, 'text'), 0, true)).toEqual({ 1: { id: '2988507', class: ['city', 'capital'] }, 2: 'text' })
  })
})

describe('pages', () => {
  const items = [item(1, 'a'), item(0.85, 'b'), item(0.5, 'c'), item(0.05, 'd')]
  const result: ResultSet = { output: ['STRING'], rowClass: 'triple', items }

  it('cuts a page at its offset, shorter at the end and empty past it', () => {
    expect(pageOf(items, 1, 2)).toEqual({ offset: 1, count: 2, items: [items[1], items[2]] })
    expect(pageOf(items, 3, 10).items).toEqual([items[3]])
    expect(pageOf(items, 9, 10).items).toEqual([])
  })

  it('numbers the ranks of a page from its offset', () => {
    expect(resultsBody(result, pageOf(items, 2, 2), 1, false)).toEqual({
      offset: 2,
      count: 2,
      type: ['STRING'],
      items: [
        { rank: 3, probability: 0.5, tuple: ['c'] },
        { rank: 4, probability: 0.05, tuple: ['d'] },
      ],
    })
    expect(resultPageBody(result, pageOf(items, 0, 1)).items).toEqual([{ rank: 1, probability: 1, tuple: [{ value: 'a' }] }])
  })

  it('counts the results at or above each cutoff from 0.9 down to 0.0', () => {
    expect(statisticsBody(items)).toEqual({
      total: 4,
      stats: [
        { cutoff: '0.9', numResults: 1 },
        { cutoff: '0.8', numResults: 2 },
        { cutoff: '0.7', numResults: 2 },
        { cutoff: '0.6', numResults: 2 },
        { cutoff: '0.5', numResults: 3 },
        { cutoff: '0.4', numResults: 3 },
        { cutoff: '0.3', numResults: 3 },
        { cutoff: '0.2', numResults: 3 },
        { cutoff: '0.1', numResults: 3 },
        { cutoff: '0.0', numResults: 4 },
      ],
    })
    expect(statisticsBody([])).toEqual({ total: 0, stats: ['0.9', '0.8', '0.7', '0.6', '0.5', '0.4', '0.3', '0.2', '0.1', '0.0'].map((cutoff) => ({ cutoff, numResults: 0 })) })
  })

  it('keeps the results at or above a cutoff, all of them for 0', () => {
    expect(applyCutoff(items, 0)).toBe(items)
    expect(applyCutoff(items, 0.5)).toEqual(items.slice(0, 3))
    expect(applyCutoff(items, 1)).toEqual(items.slice(0, 1))
    expect(applyCutoff(items, 0.01)).toEqual(items)
  })
})

describe('entityView', () => {
  it('flattens the attributes beside id and class, a reference as its id, class and name, an empty value left out', () => {
    expect(entityView(paris)).toEqual({ id: '2988507', class: 'city capital', name: 'Paris', country: { id: 'FR', class: 'country', name: 'France' }, population: 2_138_551, capital: true })
  })

  it('gives a simple value as {value}, a reference without a name as id and class, and never lets an attribute replace id or class', () => {
    expect(entityView('text')).toEqual({ value: 'text' })
    const nameless: DataObject = { id: 'X', class: ['thing'], attributes: {} }
    const odd: DataObject = { id: '1', class: ['city'], attributes: { id: 'other', class: 'other', of: new Ref(nameless) } }
    expect(entityView(odd)).toEqual({ id: '1', class: 'city', of: { id: 'X', class: 'thing' } })
  })
})

describe('facetOption', () => {
  it("is the object's id as value, its name as title (the id when it has none), and the count as score", () => {
    expect(facetOption(france, 12)).toEqual({ id: 'FR', score: 12, value: 'FR', title: 'France' })
    expect(facetOption({ id: 'ZZ', class: ['country'], attributes: {} }, 0)).toEqual({ id: 'ZZ', score: 0, value: 'ZZ', title: 'ZZ' })
  })
})
