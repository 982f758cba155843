import MiniSearch from 'minisearch'
import type { DataObject } from './model'

/**
 * Free-text index over city names (MiniSearch, BM25). Terms are folded to
 * lower case without diacritics so that "sao paulo" finds "São Paulo".
 */

export interface TextHit {
  /** Position of the object in the indexed list (the city ordinal). */
  ordinal: number
  object: DataObject
  score: number
}

export interface TextIndex {
  search(query: string): TextHit[]
}

function fold(term: string): string {
  return term.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}

interface Doc {
  i: number
  name: string
}

export function buildTextIndex(objects: DataObject[]): TextIndex {
  const index = new MiniSearch<Doc>({
    idField: 'i',
    fields: ['name'],
    storeFields: [],
    processTerm: (term) => fold(term) || null,
  })
  const docs: Doc[] = objects.map((object, i) => ({ i, name: String(object.attributes.name ?? '') }))
  index.addAll(docs)
  return {
    search(query) {
      // Prefix matching only from three letters on: shorter prefixes match most of the world.
      const hits = index.search(query, { prefix: (term) => term.length >= 3, combineWith: 'OR' })
      return hits.map((hit) => ({ ordinal: hit.id as number, object: objects[hit.id as number]!, score: hit.score }))
    },
  }
}
