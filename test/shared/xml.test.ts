import { describe, expect, it } from 'vitest'
import { readXmlPage, xmlHead, xmlRows, xmlTail, XmlPageError } from '../../src/shared/export/xml'

const page = (offset: number, ids: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<results offset="${offset}" count="2">\n  <type>OBJ</type>\n` +
  ids
    .map(
      (id, i) =>
        `  <item rank="${offset + i + 1}" probability="0.5">\n    <column index="1">\n      <object id="${id}">\n        <class>city</class>\n        <attributes>\n          <attribute name="name">A &amp; B &lt;x&gt; "q" &gt; ]]</attribute>\n          <attribute name="note" null="true"/>\n        </attributes>\n      </object>\n    </column>\n  </item>\n`,
    )
    .join('') +
  '</results>\n'

describe('xml pages merged into one document', () => {
  it('reads the service\'s page: its prolog, root, type list and items', () => {
    const read = readXmlPage(page(0, ['a', 'b']))
    expect(read.rootName).toBe('results')
    expect(read.rootStart).toBe('<results offset="0" count="2">')
    expect(read.prolog).toBe('<?xml version="1.0" encoding="UTF-8"?>\n')
    expect(read.children.map((child) => child.name)).toEqual(['type', 'item', 'item'])
    expect(xmlRows(read)[1]).toMatch(/^<item rank="2"[\s\S]*<\/item>$/)
  })

  it('writes one root with every page\'s items, the type list once, and the count asked', () => {
    const first = readXmlPage(page(0, ['a', 'b']))
    const second = readXmlPage(page(2, ['c']))
    const merged = xmlHead(first, 3) + [...xmlRows(first), ...xmlRows(second)].map((row) => `  ${row}\n`).join('') + xmlTail(first)
    const again = readXmlPage(merged)
    expect(again.rootStart).toBe('<results offset="0" count="3">')
    expect(again.children.map((child) => child.name)).toEqual(['type', 'item', 'item', 'item'])
    expect(xmlRows(again).map((row) => /object id="(\w+)"/.exec(row)?.[1])).toEqual(['a', 'b', 'c'])
  })

  it('opens a root that an empty page closed at once', () => {
    const empty = readXmlPage('<?xml version="1.0"?><results offset="0" count="10"/>')
    expect(empty.children).toEqual([])
    expect(readXmlPage(xmlHead(empty, 10) + xmlTail(empty)).rootStart).toBe('<results offset="0" count="10">')
  })

  it('reads attribute values holding ">" and "/>", comments and CDATA inside items', () => {
    const text = '<r><item a="x > y" b=\'/>\'><!-- <item> --><v><![CDATA[</item>]]></v></item><item/></r>'
    expect(xmlRows(readXmlPage(text))).toEqual(['<item a="x > y" b=\'/>\'><!-- <item> --><v><![CDATA[</item>]]></v></item>', '<item/>'])
  })

  it.each([
    ['<!DOCTYPE r [<!ENTITY a "aaaa">]><r/>', /DOCTYPE/],
    ['<r><item></r>', /closes <\/r> where <\/item> was expected/],
    ['<r><item>', /ends before <\/r>/],
    ['<r>text</r>', /text directly/],
    ['<r/><r/>', /more after/],
    ['just text', /no root element/],
    ['<r><item a="1></item></r>', /never ends/],
  ])('refuses a page that is not well formed: %s', (text, message) => {
    expect(() => readXmlPage(text)).toThrow(XmlPageError)
    expect(() => readXmlPage(text)).toThrow(message)
  })
})

describe('xml pages lose what would act when the file is opened', () => {
  const hostile =
    '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="http://203.0.113.9/x.xsl"?>\n' +
    '<results xmlns:xi="http://www.w3.org/2001/XInclude" offset="0" count="2">\n' +
    '  <type>OBJ</type>\n' +
    '  <xi:include href="file:///etc/passwd" parse="text"/>\n' +
    '  <item rank="1"><?evil run="1"?><name>Paris</name><xi:include href="http://203.0.113.9/a"><xi:fallback>x</xi:fallback></xi:include></item>\n' +
    '  <item rank="2" xmlns:inc="http://www.w3.org/2003/XInclude"><inc:include href="b"/><name>Lyon</name>' +
    '<box xmlns="http://www.w3.org/2001/XInclude"><include href="c"/></box></item>\n' +
    '</results>\n<?after it?>\n'

  it('keeps the declaration, drops every processing instruction and XInclude element and declaration, and keeps the rest', () => {
    const page = readXmlPage(hostile)
    expect(page.prolog).toBe('<?xml version="1.0"?>\n\n')
    expect(page.rootStart).toBe('<results offset="0" count="2">')
    expect(page.children.map((child) => child.name)).toEqual(['type', 'item', 'item'])
    expect(xmlRows(page)).toEqual(['<item rank="1"><name>Paris</name></item>', '<item rank="2"><name>Lyon</name></item>'])
    const merged = xmlHead(page, 2) + xmlRows(page).map((row) => `  ${row}\n`).join('') + xmlTail(page)
    expect(merged).not.toMatch(/<\?(?!xml )|XInclude|include|fallback/)
    // Still one well-formed document.
    expect(readXmlPage(merged).children).toHaveLength(3)
  })

  it('refuses a page whose root is itself an XInclude element', () => {
    expect(() => readXmlPage('<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="x"/>')).toThrow(/XInclude element/)
  })
})
