import { describe, expect, it } from 'vitest'
import { toNTriples } from '../../src/service/formats/ntriples'
import type { Cell } from '../../src/service/query/result-set'
import { answerOf, france, item } from '../fixtures/service-answer'

/** The demo service's rdf answer (src/service/formats/ntriples.ts): a statement a line, in W3C N-Triples. */

const CITY = 'https://world.example.org/city/2988507'
const NAME = 'https://world.example.org/vocabulary/name'

const ntriples = (...tuples: Cell[][]) => toNTriples(answerOf(tuples.map((tuple) => item(1, ...tuple))).page)

describe('toNTriples', () => {
  it('writes a statement a line, an object that is a web address as an IRI, any other as a literal', () => {
    expect(ntriples([CITY, NAME, 'Paris'], [CITY, 'https://world.example.org/vocabulary/country', 'https://world.example.org/country/FR'], [CITY, NAME, 'http://example.org/a b'])).toBe(
      [
        `<${CITY}> <${NAME}> "Paris" .`,
        `<${CITY}> <https://world.example.org/vocabulary/country> <https://world.example.org/country/FR> .`,
        // A space is not in an IRI: this object is text.
        `<${CITY}> <${NAME}> "http://example.org/a b" .`,
        '',
      ].join('\n'),
    )
  })

  it('escapes a literal\'s quote, backslash and line breaks, so each statement stays one line', () => {
    expect(ntriples([CITY, NAME, 'say "hi"\\ now\nthen\r\nend\ttab'])).toBe(`<${CITY}> <${NAME}> "say \\"hi\\"\\\\ now\\nthen\\r\\nend\ttab" .\n`)
  })

  it('writes what an IRI may not hold in a subject or predicate as \\u escapes', () => {
    expect(ntriples(['https://world.example.org/city/a b<c>', `${NAME}"x`, 'v'])).toBe(
      '<https://world.example.org/city/a\\u0020b\\u003Cc\\u003E> <https://world.example.org/vocabulary/name\\u0022x> "v" .\n',
    )
  })

  it('writes an object cell as its id, and nothing for an empty page', () => {
    expect(ntriples([france, NAME, 'France'])).toBe(`<FR> <${NAME}> "France" .\n`)
    expect(toNTriples(answerOf([]).page)).toBe('')
  })
})
