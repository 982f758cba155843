import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TableSpool, type Cell } from '../../src/main/export/table-spool'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The pages of a csv or xlsx export kept on disk until the last: the header
 * is the union of every page's columns, and each page's rows come back
 * under it, an empty cell where a page had no such column.
 */

describe('table spool', () => {
  const tempDir = useTempDirs('qe-table-spool')

  const next = () => join(tempDir(), 'spool')

  async function all(spool: TableSpool, empty: Cell, signal?: AbortSignal): Promise<Cell[][]> {
    const rows: Cell[][] = []
    for await (const page of spool.rows(empty, signal)) rows.push(...page)
    return rows
  }

  it('gives the union of the pages\' columns as the header, and every row under it', async () => {
    const path = next()
    const spool = await TableSpool.open(path)
    try {
      await spool.add(['rank', '1.id', '1.name', '2.id'], [[1, 'a', 'Ann', 'x']])
      // A column new to tuple column 1 joins its group, before the 2. columns; a page without 1.name.
      await spool.add(['rank', '1.id', '1.population', '2.id'], [[2, 'b', 500, 'y'], [3, 'c', null, 'z']])
      expect(spool.header()).toEqual(['rank', '1. id', 'name', 'population', '2. id'])
      expect(await all(spool, '')).toEqual([
        [1, 'a', 'Ann', '', 'x'],
        [2, 'b', '', 500, 'y'],
        [3, 'c', '', null, 'z'],
      ])
      // Kept on disk only by its owner; its size the JSON lines written.
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(spool.bytes).toBe(Buffer.byteLength('[[1,"a","Ann","x"]]\n[[2,"b",500,"y"],[3,"c",null,"z"]]\n'))
    } finally {
      await spool.close()
    }
  })

  it("writes the grid's chosen columns only, in the grid's order, a column no page had left empty", async () => {
    const spool = await TableSpool.open(next(), ['1.name', 'rank', '1.capital'])
    try {
      await spool.add(['rank', '1.id', '1.name'], [[1, 'a', 'Ann']])
      expect(spool.header()).toEqual(['name', 'rank', 'capital'])
      expect(await all(spool, null)).toEqual([['Ann', 1, null]])
    } finally {
      await spool.close()
    }
  })

  it('no pages: an empty header and no rows', async () => {
    const spool = await TableSpool.open(next())
    try {
      expect(spool.header()).toEqual([])
      expect(await all(spool, '')).toEqual([])
    } finally {
      await spool.close()
    }
  })

  it('refuses a union wider than a spreadsheet, saying why, and keeps the pages before it', async () => {
    const spool = await TableSpool.open(next())
    try {
      await spool.add(['rank'], [[1]])
      const wide = Array.from({ length: 16_384 }, (_, i) => `1.a${i}`)
      await expect(spool.add(wide, [])).rejects.toMatchObject({
        code: 'too_large',
        message: 'The export was stopped: its pages have 16,385 columns together, more than the 16,384 an export takes (a spreadsheet\'s widest).',
      })
      expect(spool.header()).toEqual(['rank'])
    } finally {
      await spool.close()
    }
  })

  it('never opens a file that exists, and stops reading back once cancelled', async () => {
    const taken = next()
    writeFileSync(taken, 'x')
    await expect(TableSpool.open(taken)).rejects.toMatchObject({ code: 'EEXIST' })
    const spool = await TableSpool.open(next())
    try {
      await spool.add(['rank'], [[1]])
      const cancel = new AbortController()
      cancel.abort()
      await expect(all(spool, '', cancel.signal)).rejects.toMatchObject({ name: 'AbortError' })
    } finally {
      await spool.close()
    }
  })
})
