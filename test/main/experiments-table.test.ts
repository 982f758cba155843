import { describe, expect, it } from 'vitest'
import { ExperimentsTable } from '../../src/main/storage/data-store/experiments-table'
import { experimentSummary } from '../../src/shared/experiments/experiment-record'
import { experimentRecord } from '../fixtures/kept-evaluation'
import { refusal } from '../fixtures/failure-of'
import { useMigratedDb } from '../fixtures/migrated-db'

/** Kept experiments, a row each: listed newest first, the newest `keep` kept, checked before they are written. */

describe('ExperimentsTable', () => {
  const migratedDb = useMigratedDb()

  it('keeps a record, lists its summary and gives it back whole', () => {
    const table = new ExperimentsTable(migratedDb(), 10)
    const record = experimentRecord('x1', ['e1', 'e2'])
    expect(table.add(record)).toEqual(experimentSummary(record))
    expect(table.list()).toEqual([experimentSummary(record)])
    expect(table.get('x1')).toEqual(record)
    expect(table.get('nope')).toBeNull()
  })

  it('lists newest first, of one set when named, and keeps only the newest `keep`', () => {
    const table = new ExperimentsTable(migratedDb(), 2)
    table.add(experimentRecord('x1', ['e1', 'e2']))
    table.add({ ...experimentRecord('x2', ['e1', 'e2']), set: 'Other set' })
    table.add(experimentRecord('x3', ['e1', 'e2']))
    expect(table.list().map((summary) => summary.id)).toEqual(['x3', 'x2'])
    expect(table.list('Big set').map((summary) => summary.id)).toEqual(['x3'])
    expect(table.get('x1')).toBeNull()
  })

  it('refuses a record that would not read back, naming the field, and writes nothing', () => {
    const table = new ExperimentsTable(migratedDb(), 10)
    const record = experimentRecord('x1', ['e1', 'e2'])
    const bad = { ...record, sides: [{ ...record.sides[0]!, means: { 'ndcg@10': Number.NaN } }, record.sides[1]!] }
    const error = refusal(() => table.add(bad))
    expect(error.message).toMatch(/^Not kept: the experiment would not read back \(sides\.0\.means\.ndcg@10: /)
    expect(table.list()).toEqual([])
  })

  it('a listed row that no longer reads is said, and left as it is', () => {
    const db = migratedDb()
    const table = new ExperimentsTable(db, 10)
    table.add(experimentRecord('x1', ['e1', 'e2']))
    db.prepare("UPDATE experiments SET record = '{\"id\":\"x1\"' WHERE id = 'x1'").run()
    const error = refusal(() => table.get('x1'))
    expect([error.code, error.message]).toEqual([
      'not_found',
      'The kept experiment "x1" is listed, but it does not read as one (damaged, or written by another version); it is left as it is in the data folder\'s database.',
    ])
    expect(table.list()).toHaveLength(1)
  })
})
