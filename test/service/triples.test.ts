import { describe, expect, it } from 'vitest'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { DATA_BASE, RDF_TYPE, VOCABULARY, objectIri, statementsOf, triples } from '../../src/service/query/endpoints/triples'
import { UNLIMITED } from '../../src/service/query/work-budget'
import type { RunContext } from '../../src/service/query/endpoint'
import { buildTextIndex } from '../../src/service/dataset/text-index'
import { buildDataset } from '../../src/service/dataset/load'
import { tinySource } from '../fixtures/tiny-dataset'

/** Objects as RDF statements: one (subject, predicate, object) per attribute with a value, under example.org. */

const france: DataObject = { id: 'FR', class: ['country'], attributes: { name: 'France' } }
const paris: DataObject = { id: '2988507', class: ['city'], attributes: { name: 'Paris', country: new Ref(france), population: 2_138_551, capital: null } }
const PARIS = 'https://world.example.org/city/2988507'

describe('objectIri', () => {
  it('is the class and the id, encoded as one segment, under example.org', () => {
    expect(objectIri(paris)).toBe(PARIS)
    expect(objectIri({ id: 'a b/c', class: ['country'], attributes: {} })).toBe(`${DATA_BASE}country/a%20b%2Fc`)
    expect(objectIri({ id: 'x', class: [], attributes: {} })).toBe(`${DATA_BASE}thing/x`)
  })
})

describe('statementsOf', () => {
  it('states the class, then each attribute with a value, a reference as its IRI', () => {
    expect(statementsOf(paris)).toEqual([
      [PARIS, RDF_TYPE, `${VOCABULARY}City`],
      [PARIS, `${VOCABULARY}name`, 'Paris'],
      [PARIS, `${VOCABULARY}country`, 'https://world.example.org/country/FR'],
      [PARIS, `${VOCABULARY}population`, '2138551'],
    ])
    // Kept per object: the statements of a city asked again are the same list.
    expect(statementsOf(paris)).toBe(statementsOf(paris))
  })
})

describe('the triples endpoint', () => {
  it('gives the statements of each input object with its probability, ranked as any result set', () => {
    const dataset = buildDataset(tinySource())
    const context: RunContext = { dataset, text: buildTextIndex([]), config: { name: 'default', ranking: 'text', xml: false }, budget: UNLIMITED }
    const result = triples.run({ output: ['OBJ'], rowClass: 'country', items: [{ p: 0.5, tuple: [france] }, { p: 0.9, tuple: [paris] }] }, {}, context)
    expect([result.output, result.rowClass]).toEqual([['STRING', 'STRING', 'STRING'], 'triple'])
    // Highest probability first, then by subject, predicate and object as text ("http:" sorts before "https:").
    expect(result.items.map((item) => [item.p, item.tuple[1]])).toEqual([
      [0.9, RDF_TYPE],
      [0.9, `${VOCABULARY}country`],
      [0.9, `${VOCABULARY}name`],
      [0.9, `${VOCABULARY}population`],
      [0.5, RDF_TYPE],
      [0.5, `${VOCABULARY}name`],
    ])
  })
})
