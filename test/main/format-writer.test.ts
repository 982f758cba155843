import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createWriter } from '../../src/main/export/format-writer'
import type { ExportFormat } from '../../src/shared/ipc/contract'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * One export's pages, in order, into one file of its format: at most the
 * rows asked of each page, joined as the format joins (one JSON array, one
 * XML root, statements one after another); a page that is not what its
 * format says fails with the format and the reason.
 */

describe('format writer', () => {
  const tempDir = useTempDirs('qe-format-writer')

  /** Where one export writes: its file and its spool, in a folder of its own. */
  const paths = () => {
    const dir = tempDir()
    return { file: join(dir, 'file'), spool: join(dir, 'spool') }
  }
  const json = (offset: number, ranks: number[]) =>
    Buffer.from(JSON.stringify({ offset, count: ranks.length, type: ['city'], items: ranks.map((rank) => ({ rank, probability: 0.5, tuple: [`t${rank}`] })) }))

  /** Writes `pages` (each with the rows asked of it) and finishes; the counts kept and the file's text. */
  async function written(format: ExportFormat, rowsWanted: number, pages: [Buffer, number][]): Promise<{ kept: number[]; text: string }> {
    const where = paths()
    const writer = await createWriter(format, where, rowsWanted)
    const kept: number[] = []
    for (const [body, asked] of pages) kept.push(await writer.addPage(body, asked))
    await writer.finish(new AbortController().signal)
    expect(writer.bytes).toBe(readFileSync(where.file).length)
    return { kept, text: readFileSync(where.file, 'utf8') }
  }

  it('json: one array of every page\'s items, one a line, at most the rows asked of a page', async () => {
    const { kept, text } = await written('json', 3, [
      [json(0, [1, 2]), 2],
      [json(2, [3, 4]), 1],
    ])
    expect(kept).toEqual([2, 1])
    expect(text).toBe(
      '[\n{"rank":1,"probability":0.5,"tuple":["t1"]},\n{"rank":2,"probability":0.5,"tuple":["t2"]},\n{"rank":3,"probability":0.5,"tuple":["t3"]}\n]\n',
    )
    expect(JSON.parse(text)).toHaveLength(3)
    expect((await written('json', 5, [[json(0, []), 5]])).text).toBe('[]\n')
  })

  it('json: a page that is not a page of results fails naming the field', async () => {
    const writer = await createWriter('json', paths(), 5)
    await expect(writer.addPage(Buffer.from('{"offset":0,"count":1,"type":["city"],"items":[{"rank":"1"}]}'), 5)).rejects.toMatchObject({
      code: 'bad_response',
      message: "The service's json answer cannot be read: it is not a page of results (items.0.rank: expected an integer).",
    })
    await expect(writer.addPage(Buffer.from('not json'), 5)).rejects.toMatchObject({ code: 'bad_response', message: 'The json answer is not valid JSON (8 bytes received).' })
    await writer.abandon()
  })

  it("xml: the first page's declaration, root (its count the rows wanted) and types, every page's items, one root end", async () => {
    const page = (offset: number, ranks: number[]) =>
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<results offset="${offset}" count="2">\n  <type>city</type>\n${ranks.map((rank) => `  <item rank="${rank}"/>\n`).join('')}</results>\n`)
    const { kept, text } = await written('xml', 3, [
      [page(0, [1, 2]), 2],
      [page(2, [3, 4]), 1],
    ])
    expect(kept).toEqual([2, 1])
    expect(text).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<results offset="0" count="3">\n  <type>city</type>\n  <item rank="1"/>\n  <item rank="2"/>\n  <item rank="3"/>\n</results>\n')
    // Pages whose roots differ cannot be one document.
    const writer = await createWriter('xml', paths(), 4)
    await writer.addPage(page(0, [1]), 2)
    await expect(writer.addPage(Buffer.from('<other><item/></other>'), 2)).rejects.toMatchObject({
      code: 'bad_response',
      message: "The service's xml answer cannot be read: one page's root element is <other>, another's <results>.",
    })
    await writer.abandon()
  })

  it('rdf: the statements of every page, blank lines and comments left out, at most the rows asked', async () => {
    const { kept, text } = await written('rdf', 3, [
      [Buffer.from('\uFEFF<a> <b> "1" .\r\n\n# a comment\n<a> <b> "2" .\n'), 2],
      [Buffer.from('<a> <b> "3" .\n<a> <b> "4" .\n'), 1],
    ])
    expect(kept).toEqual([2, 1])
    expect(text).toBe('<a> <b> "1" .\n<a> <b> "2" .\n<a> <b> "3" .\n')
  })

  it('csv: the pages kept until the end, then one header and the rows, the spool gone from view', async () => {
    const where = paths()
    const writer = await createWriter('csv', where, 2, ['1.name', 'rank'])
    expect(await writer.addPage(Buffer.from('rank,1.id,1.name\r\n1,a,Ann\r\n2,b,=1+1\r\n3,c,Cy\r\n'), 2)).toBe(2)
    expect(existsSync(where.file)).toBe(false)
    await writer.finish(new AbortController().signal)
    // The grid's columns in its order, the byte order mark, a formula neutralized.
    expect(readFileSync(where.file, 'utf8')).toBe("\uFEFFname,rank\r\nAnn,1\r\n'=1+1,2\r\n")
  })

  it('never writes over a file that exists', async () => {
    const where = paths()
    const first = await createWriter('json', where, 1)
    await first.finish(new AbortController().signal)
    await expect(createWriter('json', where, 1)).rejects.toMatchObject({ code: 'EEXIST' })
  })
})
