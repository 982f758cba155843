import { describe, expect, it } from 'vitest'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { toXml } from '../../src/service/formats/xml'
import { answerOf, france, item, paris } from '../fixtures/service-answer'
import { parseXml } from '../fixtures/xml'

/**
 * The demo service's xml answer (src/service/formats/xml.ts), the JSON shape
 * as elements; also on values the demo dataset does not hold (it has no
 * control character, and no request parameter is echoed into an answer):
 * what a dataset value could make of an answer.
 */

const country: DataObject = { id: 'X\u0001Y', class: ['country'], attributes: { name: 'Land\uFFFE' } }
const city: DataObject = {
  id: 'c\u00071',
  class: ['city'],
  attributes: { name: 'Bad\u0001name <&> "q"', note: 'tab\there\r\nline\u001F\uD800end', country: new Ref(country), population: 12, capital: false, altName: null },
}

describe('toXml', () => {
  it('gives a well-formed answer for a value with a control character, the forbidden characters dropped', () => {
    const { result, page } = answerOf([item(0.5, city, 'val\u0002ue\uFFFF')])
    for (const level of [0, 1, 2]) expect(() => parseXml(toXml(result, page, level))).not.toThrow()
    const elements = parseXml(toXml(result, page, 2))
    expect(elements.filter((element) => element.name === 'object').map((element) => element.attributes.id)).toEqual(['c1', 'XY'])
    const attribute = (name: string) => elements.find((element) => element.name === 'attribute' && element.attributes.name === name)!.text
    expect(attribute('name')).toBe('Bad\u0001name <&> "q"'.replace('\u0001', ''))
    // TAB, CR and LF are allowed and come back as they were.
    expect(attribute('note')).toBe('tab\there\r\nlineend')
    expect(elements.find((element) => element.name === 'value')!.text).toBe('value')
  })

  it('writes values without such characters as they are, escaped', () => {
    const { result, page } = answerOf([item(0.5, { id: '1', class: ['city'], attributes: { name: 'São <Paulo> & "co"' } })])
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

  it('ranks from the page offset, marks a null attribute, gives ids only at level 0 and opens a reference a level deeper', () => {
    const { result, page } = answerOf([item(0.75, france, 'a'), item(0.25, france, 'b')], 20, 2)
    expect(toXml(result, page, 0)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<results offset="20" count="2">',
        '  <type>OBJ</type>',
        '  <type>STRING</type>',
        '  <item rank="21" probability="0.75">',
        '    <column index="1">',
        '      <object id="FR">',
        '        <class>country</class>',
        '      </object>',
        '    </column>',
        '    <column index="2">',
        '      <value>a</value>',
        '    </column>',
        '  </item>',
        '  <item rank="22" probability="0.25">',
        '    <column index="1">',
        '      <object id="FR">',
        '        <class>country</class>',
        '      </object>',
        '    </column>',
        '    <column index="2">',
        '      <value>b</value>',
        '    </column>',
        '  </item>',
        '</results>',
        '',
      ].join('\n'),
    )
    const deep = answerOf([item(1, paris)])
    const elements = parseXml(toXml(deep.result, deep.page, 2))
    // The country opened in place (its own attributes follow it), the continent given by id one level further down.
    const attributes = elements.filter((element) => element.name === 'attribute')
    expect(attributes.map((element) => [element.attributes.name, element.attributes.null === 'true' ? null : element.text.trim()])).toEqual([
      ['name', 'Paris'],
      ['country', ''],
      ['name', 'France'],
      ['continent', 'Europe'],
      ['population', '2138551'],
      ['capital', 'true'],
      ['altName', null],
    ])
    expect(elements.filter((element) => element.name === 'class').map((element) => element.text)).toEqual(['city', 'capital', 'country'])
  })

  it('writes the results element alone for an empty page', () => {
    const { result, page } = answerOf([], 5, 10)
    expect(toXml(result, page, 1)).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<results offset="5" count="10">\n</results>\n')
  })
})
