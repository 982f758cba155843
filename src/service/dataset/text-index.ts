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

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]

/**
 * The words of a query as the index sees them (tokenized and folded, so "San"
 * and "san" are one word), each with how often it appears.
 */
export function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>()
  for (const token of tokenize(query)) {
    const term = fold(token)
    if (term) terms.set(term, (terms.get(term) ?? 0) + 1)
  }
  return terms
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
      // MiniSearch scores a repeated word once per repetition, and each pass
      // walks every name it prefixes: "san " 1000 times costs seconds. One pass
      // weighted by the count sums to the same score, since OR adds the scores.
      const terms = queryTerms(query)
      const distinct = [...terms.keys()]
      const hits = index.search(query, {
        tokenize: () => distinct,
        processTerm: (term) => term,
        boostTerm: (term) => terms.get(term) ?? 1,
        // Prefix matching only from three letters on: shorter prefixes match most of the world.
        prefix: (term) => term.length >= 3,
        combineWith: 'OR',
      })
      return hits.map((hit) => ({ ordinal: hit.id as number, object: objects[hit.id as number]!, score: hit.score }))
    },
  }
}
