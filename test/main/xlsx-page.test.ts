import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OutputFile } from '../../src/main/export/output-file'
import type { Cell } from '../../src/main/export/table-spool'
import { excelJsRows, plainSheetRows, readXlsxPage } from '../../src/main/export/xlsx-page'
import { checkedZipEntries } from '../../src/main/export/zip-bounds'
import { ZipWriter } from '../../src/main/export/zip-writer'
import { useTempDirs } from '../fixtures/temp-dirs'
import { table, writtenWorkbook } from '../fixtures/xlsx-tables'
import { toXlsx } from '../../src/service/formats/xlsx'

/**
 * An export's workbooks read without exceljs's cell models, held to what
 * exceljs gives: each page reads to the values exceljs reads from it
 * (workbooks written by the demo service, by exceljs, by the export's own
 * writer and by hand, the plain ones read here and the others handed to
 * exceljs). The writer's own tests (the parts exceljs wrote, byte for byte;
 * LibreOffice opens them) are test/main/xlsx-file.test.ts.
 */

const MiB = 1024 * 1024

describe('xlsx workbooks of an export', () => {
  const tempDir = useTempDirs('qe-xlsx-page')

  /** The workbook writeWorkbook writes for `header` and `rows`. */
  const written = (header: string[], rows: Cell[][]) => writtenWorkbook(join(tempDir(), 'written.xlsx'), header, rows)

  /** A workbook of the given parts, zipped by the export's own zip writer. */
  async function workbookOf(parts: Record<string, string>): Promise<Buffer> {
    const path = join(tempDir(), 'parts.xlsx')
    const zip = new ZipWriter(await OutputFile.create(path))
    for (const [name, text] of Object.entries(parts)) await zip.add(name, Buffer.from(text, 'utf8'))
    await zip.finish()
    return readFileSync(path)
  }

  it("reads the demo service's pages itself, to the values exceljs reads", async () => {
    for (const seed of [5, 6, 7]) {
      const { header, rows } = table(seed, 100)
      const page = await toXlsx({ header, rows })
      const files = checkedZipEntries(page, 8 * MiB) as Map<string, Buffer>
      const plain = plainSheetRows(files)
      expect(plain, 'read without exceljs').not.toBeNull()
      expect(plain).toEqual(await excelJsRows(page))
    }
  })

  it("reads what it writes (exceljs's streaming writer's form, strings in their cells) itself, to the values exceljs reads", async () => {
    const { header, rows } = table(8, 120)
    const file = await written(header, rows)
    expect(plainSheetRows(checkedZipEntries(file, 64 * MiB) as Map<string, Buffer>), 'read without exceljs').not.toBeNull()
    expect(await readXlsxPage(file, 64 * MiB)).toEqual(await excelJsRows(file))
    // exceljs decodes such a cell's entities twice: text that spells an entity reads as that character.
    const spelled = await written(['text'], [['a &amp; b, &lt;i&gt;, &nbsp; &#38;']])
    expect(await readXlsxPage(spelled, 8 * MiB)).toEqual(await excelJsRows(spelled))
  })

  const CONTENT_TYPES =
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>'
  const ROOT_RELS =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
  const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
  const book = (sheets: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook ${NS}><sheets>${sheets}</sheets></workbook>`
  const rels = (targets: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
      .map((target, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="${target}"/>`)
      .join('')}</Relationships>`
  const sheetXml = (rows: string, after = '') => `<?xml version="1.0" encoding="UTF-8"?>\r\n<worksheet ${NS}>\r\n  <sheetData>\r\n${rows}\r\n  </sheetData>${after}\r\n</worksheet>`
  const strings = (items: string[]) => `<?xml version="1.0" encoding="UTF-8"?><sst ${NS} count="${items.length}">${items.map((item) => `<si>${item}</si>`).join('')}</sst>`
  const styles = (numFmts: string, xfs: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${NS}>${numFmts}<fonts count="1"><font><sz val="11"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellXfs count="${xfs.length}">${xfs.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0"/>`).join('')}</cellXfs></styleSheet>`
  /** A workbook of one sheet `results` (unless other sheets are given) and the parts added. */
  const workbook = (sheet: string, more: Record<string, string> = {}) =>
    workbookOf({
      '[Content_Types].xml': CONTENT_TYPES,
      '_rels/.rels': ROOT_RELS,
      'xl/workbook.xml': book('<sheet name="results" sheetId="1" r:id="rId1"/>'),
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml']),
      'xl/worksheets/sheet1.xml': sheet,
      ...more,
    })

  const PLAIN_ROWS = [
    '    <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>1.name</t></is></c><c r="D1" t="s"><v>2</v></c></row>',
    // Pretty-printed, a styled empty cell, a cell with neither value nor style, entities and references, an error, booleans as exceljs reads them.
    '    <row r="2" spans="1:6">\r\n      <c r="A2" s="1">\r\n        <v>1</v>\r\n      </c>\r\n      <c r="B2" s="2"><v>0.25</v></c>\r\n      <c r="C2" t="inlineStr"><is><t xml:space="preserve"> Caf&#233; &amp; &lt;bar&gt; &#x1F642;\r\nnext </t></is></c>\r\n      <c r="D2" s="1"/><c r="E2"/><c r="F2" t="e"><v>#N/A</v></c>\r\n    </row>',
    '    <row r="4"><c r="B4" t="b"><v>true</v></c><c r="C4" t="b"><v>0</v></c><c r="D4" t="s"><v>3</v></c><c r="E4" t="n"><v>1e3</v></c><c r="G4"><v> 7 </v></c></row>',
    '    <row r="5"><c r="A5" s="1"/></row>',
  ].join('\r\n')
  const PLAIN_STRINGS = strings(['<t>rank</t>', '<t>probability</t>', '<t>1.note</t>', '<t xml:space="preserve">tab_x0009_and_x000D_ </t>'])

  it('reads plain workbooks of other writers itself (inline and shared strings, number formats, errors), to the values exceljs reads', async () => {
    const cases = [
      await workbook(sheetXml(PLAIN_ROWS), { 'xl/sharedStrings.xml': PLAIN_STRINGS, 'xl/styles.xml': styles('', ['0', '2', '10']) }),
      // A custom number format that is not a date; a sheet named otherwise, found by its relationship's absolute target.
      await workbookOf({
        '[Content_Types].xml': CONTENT_TYPES,
        '_rels/.rels': ROOT_RELS,
        'xl/workbook.xml': book('<sheet name="Sheet 1" sheetId="3" r:id="rId7"/>'),
        'xl/_rels/workbook.xml.rels': rels(['a', 'b', 'c', 'd', 'e', 'f', '/xl/worksheets/sheet3.xml']),
        'xl/worksheets/sheet3.xml': sheetXml('<row r="1"><c r="A1" s="1"><v>12.5</v></c><c r="C1" t="s"><v>0</v></c></row>'),
        'xl/sharedStrings.xml': strings(['<t>only</t>']),
        'xl/styles.xml': styles('<numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.000\\ &quot;km&quot;"/></numFmts>', ['0', '164']),
      }),
    ]
    for (const file of cases) {
      const files = checkedZipEntries(file, 8 * MiB) as Map<string, Buffer>
      const plain = plainSheetRows(files)
      expect(plain, 'read without exceljs').not.toBeNull()
      expect(plain).toEqual(await excelJsRows(file))
    }
  })

  it('hands what is not plain to exceljs, and reads it as exceljs does', async () => {
    const notPlain = {
      'a formula': sheetXml('<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>'),
      'a date': sheetXml('<row r="1"><c r="A1" s="1"><v>44000</v></c><c r="B1" s="2"><v>44000.5</v></c></row>'),
      'merged cells': sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>m</t></is></c><c r="B1"/></row>', '<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>'),
      'rich text': sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><r><t>a</t></r><r><rPr><b/></rPr><t>b</t></r></is></c></row>'),
      'a date of its own type': sheetXml('<row r="1"><c r="A1" t="d"><v>2020-01-01T00:00:00Z</v></c></row>'),
      'rows out of order': sheetXml('<row r="3"><c r="A3"><v>3</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>'),
      'a cell without its reference': sheetXml('<row r="1"><c><v>1</v></c><c><v>2</v></c></row>'),
      'a comment': sheetXml('<row r="1"><!-- a --><c r="A1"><v>1</v></c></row>'),
      'a CDATA section': sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t><![CDATA[<x>]]></t></is></c></row>'),
      'an unknown entity': sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&nbsp;</t></is></c></row>'),
    }
    const dateStyles = styles('<numFmts count="1"><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts>', ['0', '14', '165'])
    for (const [what, sheet] of Object.entries(notPlain)) {
      const file = await workbook(sheet, { 'xl/styles.xml': dateStyles })
      const files = checkedZipEntries(file, 8 * MiB) as Map<string, Buffer>
      expect(plainSheetRows(files), what).toBeNull()
      const byExcelJs = await excelJsRows(file).catch((error: Error) => error.message)
      expect(await readXlsxPage(file, 8 * MiB).catch((error: Error) => error.message), what).toEqual(byExcelJs)
    }
    // Two sheets, "results" the second: exceljs picks it by name.
    const two = await workbookOf({
      '[Content_Types].xml': CONTENT_TYPES,
      '_rels/.rels': ROOT_RELS,
      'xl/workbook.xml': book('<sheet name="notes" sheetId="1" r:id="rId1"/><sheet name="results" sheetId="2" r:id="rId2"/>'),
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml', 'worksheets/sheet2.xml']),
      'xl/worksheets/sheet1.xml': sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>'),
      'xl/worksheets/sheet2.xml': sheetXml('<row r="1"><c r="A1"><v>2</v></c></row>'),
    })
    expect(plainSheetRows(checkedZipEntries(two, 8 * MiB) as Map<string, Buffer>)).toBeNull()
    expect(await readXlsxPage(two, 8 * MiB)).toEqual([[2]])
  })

  it("reads rows in the writers' own form (a quicker loop) to the values it reads them in any other, and exceljs reads", async () => {
    // Rows as the demo and exceljs write them, no white space between: read by xlsx-page.ts's quick loop where it can.
    const compact = (rows: string, after = '') => `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet ${NS}><dimension ref="A1"/><sheetData>${rows}</sheetData>${after}</worksheet>`
    const cases: Record<string, string[]> = {
      'every kind of cell': [
        '<row r="1" spans="1:7" s="1" customFormat="1"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1"><v></v></c><c r="C1" s="1"/><c r="D1" t="str"><v>a b</v></c><c r="E1" t="b"><v>1</v></c><c r="F1" t="e"><v>#N/A</v></c><c r="G1" t="n"><v>1e3</v></c></row>',
        '<row r="3"><c r="B3" s="2"><v>0.25</v></c><c r="AA3" t="str"><v>x</v></c></row>',
        '<row r="4"><c r="A4"/></row>',
        '<row r="5"></row>',
      ],
      'a number in a date format': ['<row r="1"><c r="A1" s="3"><v>44000</v></c></row>'],
      'a shared string that is not there': ['<row r="1"><c r="A1" t="s"><v>9</v></c></row>'],
      'rows out of order': ['<row r="2"><c r="A2"><v>2</v></c></row>', '<row r="1"><c r="A1"><v>1</v></c></row>'],
      'a cell of another row': ['<row r="1"><c r="A2"><v>1</v></c></row>'],
      'cells out of order': ['<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>2</v></c></row>'],
      'an attribute twice': ['<row r="1" r="1"><c r="A1"><v>1</v></c></row>'],
      "an attribute an object holds": ['<row r="1" constructor="x"><c r="A1"><v>1</v></c></row>'],
      'a cell of inline text': ['<row r="1"><c r="A1" t="inlineStr"><is><t>i</t></is></c><c r="B1"><v>1</v></c></row>'],
      'references in a value': ['<row r="1"><c r="A1" t="str"><v>&#65; &lt; b</v></c></row>'],
      'a character XML forbids': ['<row r="1"><c r="A1" t="str"><v>a\u0001</v></c></row>'],
    }
    const afters = ['', '<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>', '<sheetData></sheetData>']
    const more = { 'xl/sharedStrings.xml': PLAIN_STRINGS, 'xl/styles.xml': styles('<numFmts count="1"><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts>', ['0', '2', '10', '165']) }
    for (const [what, rows] of Object.entries(cases)) {
      for (const after of afters) {
        const quick = await workbook(compact(rows.join(''), after), more)
        // The same rows with white space between them, which only scanXml reads.
        const spaced = await workbook(sheetXml(rows.join('\r\n'), after), more)
        const read = (file: Buffer) => plainSheetRows(checkedZipEntries(file, 8 * MiB) as Map<string, Buffer>)
        expect(read(quick), `${what} ${after}`).toEqual(read(spaced))
        const byExcelJs = await excelJsRows(quick).catch((error: Error) => error.message)
        expect(await readXlsxPage(quick, 8 * MiB).catch((error: Error) => error.message), `${what} ${after}`).toEqual(byExcelJs)
      }
    }
    // The first case is the writers' form throughout: read without exceljs.
    expect(plainSheetRows(checkedZipEntries(await workbook(compact(cases['every kind of cell']!.join('')), more), 8 * MiB) as Map<string, Buffer>)).not.toBeNull()
  })
})
