import { describe, expect, it } from 'vitest'
import { toCsv } from '../../src/service/formats/csv'
import { tableOf } from '../../src/service/formats/table'
import { answerOf, item } from '../fixtures/service-answer'

/** The demo service's csv answer (src/service/formats/csv.ts): the flat table as RFC 4180 text, as the real service writes it. */

describe('toCsv', () => {
  it('quotes by RFC 4180 only, without the app\'s formula guard (the answer is the data, as the real service writes it)', () => {
    const { page } = answerOf([item(0.5, '=HYPERLINK("http://x","y")', '-2+3', '@SUM(A1)', 'a,b', 'two\r\nlines', 'plain')])
    expect(toCsv(tableOf(page, 1))).toBe(
      'rank,probability,1,2,3,4,5,6\r\n1,0.5,"=HYPERLINK(""http://x"",""y"")",-2+3,@SUM(A1),"a,b","two\r\nlines",plain\r\n',
    )
  })

  it('writes numbers and booleans as text, an empty cell as an empty field, each record ended by CRLF', () => {
    const table = { header: ['rank', 'probability', '1.id', '1.population', '1.capital', '1.altName'], rows: [[1, 0.25, 'FR', 2_138_551, true, null], [2, 1e-7, 'DE', -0, false, '']] }
    expect(toCsv(table)).toBe('rank,probability,1.id,1.population,1.capital,1.altName\r\n1,0.25,FR,2138551,true,\r\n2,1e-7,DE,0,false,\r\n')
  })

  it('writes the header alone for an empty page', () => {
    expect(toCsv(tableOf(answerOf([]).page, 1))).toBe('rank,probability\r\n')
  })
})
