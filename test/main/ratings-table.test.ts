import { describe, expect, it } from 'vitest'
import { RatingsTable, type JournalRating } from '../../src/main/storage/data-store/ratings-table'
import { useMigratedDb } from '../fixtures/migrated-db'

/** The ratings journal: appended in order per document, read back after a place, trimmed once the session file holds them. */

const rating = (item: string, grade: number | null, rater: string | null = null): JournalRating => ({ set: 'Cities', query: 'q1', item, grade, rater, at: '2026-01-01T00:00:00.000Z' })

describe('RatingsTable', () => {
  const migratedDb = useMigratedDb()

  it('appends ratings with rising places and reads a document\'s back after a place, oldest first, a cleared grade as null', () => {
    const table = new RatingsTable(migratedDb())
    const a = table.add('doc-1', rating('a', 2, 'Ann'))
    const other = table.add('doc-2', rating('x', 1))
    const b = table.add('doc-1', rating('b', null))
    expect([a < other, other < b]).toEqual([true, true])
    expect(table.since('doc-1', 0)).toEqual([
      { seq: a, ...rating('a', 2, 'Ann') },
      { seq: b, ...rating('b', null) },
    ])
    expect(table.since('doc-1', a)).toEqual([{ seq: b, ...rating('b', null) }])
    expect(table.since('doc-3', 0)).toEqual([])
  })

  it('trims a document\'s ratings up to a place, leaving later ones and other documents', () => {
    const table = new RatingsTable(migratedDb())
    const a = table.add('doc-1', rating('a', 1))
    table.add('doc-2', rating('x', 1))
    const c = table.add('doc-1', rating('c', 3))
    expect(table.trimTo('doc-1', a)).toBe(1)
    expect(table.since('doc-1', 0).map((row) => row.seq)).toEqual([c])
    expect(table.since('doc-2', 0)).toHaveLength(1)
    expect(table.trimTo('doc-1', a)).toBe(0)
  })
})
