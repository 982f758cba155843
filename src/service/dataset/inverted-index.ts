import { analyzeField } from './analysis'

/**
 * The city-name index as a handful of flat arrays: what BM25 needs and
 * nothing else, so it is built without per-document bookkeeping and stored
 * and loaded as raw bytes (snapshot.ts).
 */
export interface InvertedIndex {
  /**
   * Distinct folded terms in JavaScript string order (UTF-16 code units), so
   * the terms a prefix starts are one contiguous run, found by binary search.
   */
  terms: string[]
  /** Term t's postings are postingDoc and postingFrequency at [postingStart[t], postingStart[t + 1]). */
  postingStart: Uint32Array
  /** Document ordinals, ascending within a term. */
  postingDoc: Uint32Array
  /** How often the term occurs in that document. */
  postingFrequency: Uint16Array
  /** Each document's field length as BM25 counts it (analysis.ts). */
  fieldLength: Uint16Array
  /** MiniSearch's running mean of the field lengths, kept bit for bit (it enters every score). */
  averageFieldLength: number
  documentCount: number
}

export function buildInvertedIndex(texts: readonly string[]): InvertedIndex {
  const documentCount = texts.length
  const fieldLength = new Uint16Array(documentCount)
  // Per term, its postings as [doc, frequency, doc, frequency, …].
  const postings = new Map<string, number[]>()
  let averageFieldLength = 0
  let postingCount = 0
  for (let doc = 0; doc < documentCount; doc++) {
    const { length, frequencies } = analyzeField(texts[doc]!)
    if (length > 0xffff) throw new RangeError(`Text ${doc} has ${length} words, more than the index can count`)
    fieldLength[doc] = length
    // MiniSearch's own update order, so the mean rounds as its did.
    averageFieldLength = (averageFieldLength * doc + length) / (doc + 1)
    for (const [term, frequency] of frequencies) {
      if (frequency > 0xffff) throw new RangeError(`Text ${doc} repeats "${term}" more often than the index can count`)
      let list = postings.get(term)
      if (!list) postings.set(term, (list = []))
      list.push(doc, frequency)
      postingCount++
    }
  }
  const terms = [...postings.keys()].sort()
  const postingStart = new Uint32Array(terms.length + 1)
  const postingDoc = new Uint32Array(postingCount)
  const postingFrequency = new Uint16Array(postingCount)
  let at = 0
  for (let t = 0; t < terms.length; t++) {
    const list = postings.get(terms[t]!)!
    for (let i = 0; i < list.length; i += 2) {
      postingDoc[at] = list[i]!
      postingFrequency[at] = list[i + 1]!
      at++
    }
    postingStart[t + 1] = at
  }
  return { terms, postingStart, postingDoc, postingFrequency, fieldLength, averageFieldLength, documentCount }
}

/** Position of the first term not below `term` (terms.length when there is none). */
export function lowerBound(terms: readonly string[], term: string): number {
  let low = 0
  let high = terms.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (terms[middle]! < term) low = middle + 1
    else high = middle
  }
  return low
}
