import { describe, expect, it } from 'vitest'
import { parseXml } from '../fixtures/xml'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { toCsv } from '../../src/service/formats/csv'
import { tableOf } from '../../src/service/formats/table'
import { toXml } from '../../src/service/formats/xml'
import type { Page } from '../../src/service/query/render'
import type { ResultSet } from '../../src/service/query/result-set'

/**
 * The service's csv and xml writers on values the demo dataset does not hold
 * (it has no control character, and no request parameter is echoed into an
 * answer), built here directly: what a dataset value could make of an answer.
 */


const country: DataObject = { id: 'X\u0001Y', class: ['country'], attributes: { name: 'Land\uFFFE' } }
const city: DataObject = {
  id: 'c\u00071',
  class: ['city'],
  attributes: { name: 'Bad\u0001name <&> "q"', note: 'tab\there\r\nline\u001F\uD800end', country: new Ref(country), population: 12, capital: false, altName: null },
}

function answer(cells: (DataObject | string)[]): { result: ResultSet; page: Page } {
  const items = [{ p: 0.5, tuple: cells }]
  return { result: { output: cells.map((cell) => (typeof cell === 'string' ? 'STRING' : 'OBJ')), rowClass: 'city', items }, page: { offset: 0, count: 10, items } }
}

describe('service formats', () => {
  it('xml: a value with a control character still gives a well-formed answer, the forbidden characters dropped', () => {
    const { result, page } = answer([city, 'val\u0002ue\uFFFF'])
    for (const level of [0, 1, 2]) expect(() => parseXml(toXml(result, page, level))).not.toThrow()
    const elements = parseXml(toXml(result, page, 2))
    expect(elements.filter((element) => element.name === 'object').map((element) => element.attributes.id)).toEqual(['c1', 'XY'])
    const attribute = (name: string) => elements.find((element) => element.name === 'attribute' && element.attributes.name === name)!.text
    expect(attribute('name')).toBe('Bad\u0001name <&> "q"'.replace('\u0001', ''))
    // TAB, CR and LF are allowed and come back as they were.
    expect(attribute('note')).toBe('tab\there\r\nlineend')
    expect(elements.find((element) => element.name === 'value')!.text).toBe('value')
  })

  it('xml: values without such characters are written as before', () => {
    const { result, page } = answer([{ id: '1', class: ['city'], attributes: { name: 'São <Paulo> & "co"' } }])
    expect(toXml(result, page, 1)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<results offset="0" count="10">',
        '  <type>OBJ</type>',
        '  <item rank="1" probability="0.5">',
        '    <column index="1">',
        '      <object id="1">',
        '        <class>city</class>',
        '        <attributes>',
        '          <attribute name="name">São &lt;Paulo&gt; &amp; &quot;co&quot;</attribute>',
        '        </attributes>',
        '      </object>',
        '    </column>',
        '  </item>',
        '</results>',
        '',
      ].join('\n'),
    )
  })

  it('csv: RFC 4180 quoting only, without the app\'s formula guard (the answer is the data, as the real service writes it)', () => {
    const { page } = answer(['=HYPERLINK("http://x","y")', '-2+3', '@SUM(A1)', 'a,b', 'two\r\nlines', 'plain'])
    expect(toCsv(tableOf(page, 1))).toBe(
      'rank,probability,1,2,3,4,5,6\r\n1,0.5,"=HYPERLINK(""http://x"",""y"")",-2+3,@SUM(A1),"a,b","two\r\nlines",plain\r\n',
    )
  })
})
