/**
 * How a city name or a query becomes index terms. The index used to be
 * MiniSearch, and its scores are the service's rankings (and the example
 * set's judged figures), so this reproduces MiniSearch 7.2's default
 * tokenizer to the letter; test/service/text-index.test.ts checks it
 * against MiniSearch on every city name.
 */

/** MiniSearch's SPACE_OR_PUNCTUATION: any run of newlines, Unicode separators or punctuation. */
export const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u

/** Splits as MiniSearch's default tokenizer does, empty tokens included (they count in a field's length). */
export function tokenize(text: string): string[] {
  return text.split(SPACE_OR_PUNCTUATION)
}

/** Lower case without diacritics, so that "sao paulo" finds "São Paulo". */
export function fold(token: string): string {
  return token.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}

/** One indexed field value as BM25 sees it. */
export interface FieldTerms {
  /**
   * MiniSearch's field length: the distinct tokens before folding, an empty
   * token included. Odd, but the scores depend on it.
   */
  length: number
  /** Each folded, non-empty term with how often it occurs. */
  frequencies: Map<string, number>
}

export function analyzeField(text: string): FieldTerms {
  const tokens = tokenize(text)
  const frequencies = new Map<string, number>()
  for (const token of tokens) {
    const term = fold(token)
    if (term) frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
  }
  return { length: new Set(tokens).size, frequencies }
}

/**
 * The words of a query as the index sees them (tokenized and folded, so "San"
 * and "san" are one word), each with how often it appears.
 */
export function queryTerms(query: string): Map<string, number> {
  return analyzeField(query).frequencies
}
