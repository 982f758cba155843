import { queryTerms } from './analysis'
import { buildInvertedIndex, lowerBound, type InvertedIndex } from './inverted-index'
import type { DataObject } from './model'

/**
 * Free-text search over city names with BM25+. It scores exactly as the
 * MiniSearch 7.2 set-up it replaced (one field, OR of the query's distinct
 * words, each weighted by its count, prefix matches from three letters on):
 * the example set's judgements and figures rest on those scores, and
 * test/service/text-index.test.ts holds the two side by side.
 */

export { queryTerms } from './analysis'

export interface TextHit {
  /** Position of the object in the indexed list (the city ordinal). */
  ordinal: number
  object: DataObject
  score: number
}

export interface TextIndex {
  search(query: string): TextHit[]
}

// MiniSearch's defaults; the arithmetic below keeps its order of operations, so scores agree to the bit.
const K = 1.2
const B = 0.7
const D = 0.5
const PREFIX_WEIGHT = 0.375
/** Shorter words would prefix most of the world. */
const MIN_PREFIX_LENGTH = 3

export class InvertedTextIndex implements TextIndex {
  // Scratch per document, reused by every search (searches are synchronous) and left zeroed.
  private readonly total: Float64Array
  private readonly word: Float64Array
  private readonly wordsMatched: Uint32Array

  constructor(
    readonly index: InvertedIndex,
    private readonly objects: readonly DataObject[],
  ) {
    if (objects.length !== index.documentCount) throw new RangeError(`The index has ${index.documentCount} documents, not ${objects.length}`)
    this.total = new Float64Array(index.documentCount)
    this.word = new Float64Array(index.documentCount)
    this.wordsMatched = new Uint32Array(index.documentCount)
  }

  search(query: string): TextHit[] {
    const touched: number[] = []
    for (const [term, count] of queryTerms(query)) this.scoreWord(term, count, touched)
    const hits: TextHit[] = new Array(touched.length)
    for (let i = 0; i < touched.length; i++) {
      const ordinal = touched[i]!
      // As MiniSearch: a name matching more of the query's words counts that many times over.
      hits[i] = { ordinal, object: this.objects[ordinal]!, score: this.total[ordinal]! * this.wordsMatched[ordinal]! }
      this.total[ordinal] = 0
      this.wordsMatched[ordinal] = 0
    }
    return hits.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
  }

  /**
   * One pass for one distinct query word: its own postings, then those of
   * every longer term it prefixes. A repeated word is one pass with its count
   * as boost, which sums to what a pass per repetition would (OR adds).
   * `touched` collects the documents first matched by this pass.
   */
  scoreWord(term: string, boost: number, touched: number[]): void {
    const { terms } = this.index
    const inPass: number[] = []
    const first = lowerBound(terms, term)
    // The word itself weighs 1 (MiniSearch's 1 * boost, the same number).
    if (first < terms.length && terms[first] === term) this.addPostings(first, boost, inPass)
    if (term.length >= MIN_PREFIX_LENGTH) {
      for (let t = first; t < terms.length && terms[t]!.startsWith(term); t++) {
        const length = terms[t]!.length
        const distance = length - term.length
        if (distance === 0) continue
        const weight = (PREFIX_WEIGHT * length) / (length + 0.3 * distance)
        this.addPostings(t, weight * boost, inPass)
      }
    }
    for (const doc of inPass) {
      if (this.wordsMatched[doc] === 0) touched.push(doc)
      this.total[doc] = this.total[doc]! + this.word[doc]!
      this.wordsMatched[doc] = this.wordsMatched[doc]! + 1
      this.word[doc] = 0
    }
  }

  private addPostings(t: number, factor: number, inPass: number[]): void {
    const { postingStart, postingDoc, postingFrequency, fieldLength, averageFieldLength, documentCount } = this.index
    const start = postingStart[t]!
    const end = postingStart[t + 1]!
    const matching = end - start
    const inverseFrequency = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5))
    for (let p = start; p < end; p++) {
      const doc = postingDoc[p]!
      const frequency = postingFrequency[p]!
      const score = inverseFrequency * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * fieldLength[doc]!) / averageFieldLength)))
      // Every contribution is above 0 (BM25+ adds D), so 0 means not yet matched in this pass.
      const sum = this.word[doc]!
      if (sum === 0) inPass.push(doc)
      this.word[doc] = sum + factor * score
    }
  }
}

/** The index of the objects' names, built in memory. */
export function buildTextIndex(objects: readonly DataObject[]): InvertedTextIndex {
  return new InvertedTextIndex(
    buildInvertedIndex(objects.map((object) => String(object.attributes.name ?? ''))),
    objects,
  )
}
