import { describe, expect, it } from 'vitest'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import { experimentSummary } from '../../src/shared/experiments/experiment-record'
import { useDataStores } from '../fixtures/data-stores'
import { experimentRecord } from '../fixtures/kept-evaluation'
import { failureOf } from '../fixtures/failure-of'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Kept experiments through the data folder's database on its thread: kept, listed, read back after a restart. */

describe('ExperimentStore', () => {
  const tempDir = useTempDirs('qe-experiment-store')
  const dataStore = useDataStores()

  it('keeps a record, lists it by set, and a store opened again on the folder reads it back', async () => {
    const dir = tempDir()
    const data = dataStore(dir)
    const store = new ExperimentStore(data)
    const record = experimentRecord('x1', ['e1', 'e2'])
    expect(await store.add(record)).toEqual(experimentSummary(record))
    await store.add({ ...experimentRecord('x2', ['e1', 'e2']), set: 'Other' })
    expect((await store.list()).map((summary) => summary.id)).toEqual(['x2', 'x1'])
    expect((await store.list('Other')).map((summary) => summary.id)).toEqual(['x2'])
    expect(await store.get('nope')).toBeNull()

    await data.close()
    const reopened = new ExperimentStore(dataStore(dir))
    expect(await reopened.get('x1')).toEqual(record)
  })

  it('refuses, from the store\'s thread, a record that would not read back, naming the field', async () => {
    const store = new ExperimentStore(dataStore(tempDir()))
    const record = experimentRecord('x1', ['e1', 'e2'])
    const error = await failureOf(store.add({ ...record, durationMs: Number.NaN }))
    expect([error.code, error.message]).toEqual(['validation', expect.stringMatching(/^Not kept: the experiment would not read back \(durationMs: /)])
    expect(await store.list()).toEqual([])
  })
})
