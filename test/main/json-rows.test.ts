import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { keptSummaries, readJsonRow } from '../../src/main/storage/data-store/json-rows'
import { migrate } from '../../src/main/storage/data-store/schema'

/** Rows of the data folder's database read back with their schema: a row that no longer reads is left out, never a failed list. */

const Summary = z.object({ id: z.string(), n: z.number() })

describe('JSON rows of the data folder database', () => {
  const open: Database.Database[] = []
  afterEach(() => {
    for (const db of open.splice(0)) db.close()
  })

  it('reads a row with its schema, and a row cut short or of another shape as null', () => {
    expect(readJsonRow('{"id":"a","n":1}', Summary)).toEqual({ id: 'a', n: 1 })
    expect(readJsonRow('{"id":"a","n":', Summary)).toBeNull()
    expect(readJsonRow('{"id":"a","n":"one"}', Summary)).toBeNull()
  })

  it('lists the kept summaries newest first, of one set when named, leaving out a row that no longer reads', () => {
    const db = new Database(':memory:')
    open.push(db)
    migrate(db)
    const insert = db.prepare("INSERT INTO experiments (id, set_name, summary, record) VALUES (?, ?, ?, '{}')")
    insert.run('a', 'cities', JSON.stringify({ id: 'a', n: 1 }))
    insert.run('b', 'rivers', JSON.stringify({ id: 'b', n: 2 }))
    insert.run('c', 'cities', '{"id":"c"')
    insert.run('d', 'cities', JSON.stringify({ id: 'd', n: 4 }))
    expect(keptSummaries(db, 'experiments', undefined, Summary).map((row) => row.id)).toEqual(['d', 'b', 'a'])
    expect(keptSummaries(db, 'experiments', 'cities', Summary).map((row) => row.id)).toEqual(['d', 'a'])
    expect(keptSummaries(db, 'evaluations', 'cities', Summary)).toEqual([])
  })
})
