import { Ref, type DataObject } from '../../dataset/model'
import type { EndpointDefinition } from '../endpoint'
import { objectOf, sortItems, type Item } from '../result-set'

/**
 * Describes each input object as RDF statements (subject, predicate, object),
 * the endpoint whose output is [STRING,STRING,STRING] and so can be served as
 * N-Triples. IRIs live under example.org, which is reserved for examples.
 */

export const DATA_BASE = 'https://world.example.org/'
export const VOCABULARY = `${DATA_BASE}vocab#`
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'

export function objectIri(object: DataObject): string {
  return `${DATA_BASE}${object.class[0] ?? 'thing'}/${encodeURIComponent(object.id)}`
}

function className(object: DataObject): string {
  const name = object.class[0] ?? 'thing'
  return VOCABULARY + name.charAt(0).toUpperCase() + name.slice(1)
}

const cache = new WeakMap<DataObject, string[][]>()

export function statementsOf(object: DataObject): string[][] {
  const known = cache.get(object)
  if (known) return known
  const subject = objectIri(object)
  const statements: string[][] = [[subject, RDF_TYPE, className(object)]]
  for (const [name, value] of Object.entries(object.attributes)) {
    if (value === null) continue
    statements.push([subject, VOCABULARY + name, value instanceof Ref ? objectIri(value.target) : String(value)])
  }
  cache.set(object, statements)
  return statements
}

export const triples: EndpointDefinition = {
  name: 'triples',
  kind: 'modifier',
  stackable: true,
  description: 'The results before it as RDF statements: one (subject, predicate, object) per attribute.',
  parameters: [],
  output: ['STRING', 'STRING', 'STRING'],
  accepts: ['city', 'country', 'continent'],
  run(input, _parameters, { budget }) {
    const items: Item[] = []
    for (const item of input.items) {
      budget.tick()
      for (const statement of statementsOf(objectOf(item))) items.push({ p: item.p, tuple: statement })
    }
    return { output: ['STRING', 'STRING', 'STRING'], rowClass: 'triple', items: sortItems(items, budget) }
  },
}
