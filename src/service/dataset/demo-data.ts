import { buildInvertedIndex } from './inverted-index'
import { buildDataset } from './load'
import type { Dataset } from './model'
import type { Snapshot } from './snapshot'
import { defaultSnapshotStore, readSnapshot, writeSnapshot, type SnapshotStore } from './snapshot-cache'
import { readSourcePackages } from './source'
import { InvertedTextIndex } from './text-index'

/**
 * The dataset and its name index as the service starts with them: from the
 * snapshot when one fits, else from the npm packages, indexed, and then
 * stored as the snapshot for the next start.
 */

export interface DemoData {
  dataset: Dataset
  text: InvertedTextIndex
  /** Where the data came from: the snapshot, or the packages (and then indexed). */
  from: 'snapshot' | 'packages'
  /** Milliseconds for reading the snapshot (or the packages and indexing), building the dataset's objects, and opening the index. */
  timings: { read: number; dataset: number; index: number }
}

export interface DemoDataOptions {
  /** Default: node_modules/.cache/query-explorer/; null: neither read nor write a snapshot. */
  store?: SnapshotStore | null
  /** Told why a snapshot could not be used or written; never fatal. */
  log?: (message: string) => void
}

/** The snapshot that fits the store, made (and stored, when possible) if there is none. */
export function ensureSnapshot(store: SnapshotStore | null, log: (message: string) => void = () => {}): { snapshot: Snapshot; from: DemoData['from'] } {
  if (store) {
    const read = readSnapshot(store)
    if (read.snapshot) return { snapshot: read.snapshot, from: 'snapshot' }
    if (read.problem) log(`the dataset snapshot could not be used (${read.problem}); rebuilding it`)
  }
  const source = readSourcePackages()
  const snapshot = { source, index: buildInvertedIndex(source.cities.name) }
  if (store) {
    const problem = writeSnapshot(store, snapshot)
    if (problem) log(`the dataset snapshot could not be stored (${problem}); the next start indexes again`)
  }
  return { snapshot, from: 'packages' }
}

export function openDemoData(options: DemoDataOptions = {}): DemoData {
  const started = performance.now()
  const { snapshot, from } = ensureSnapshot(options.store === undefined ? defaultSnapshotStore() : options.store, options.log)
  const read = performance.now()
  const dataset = buildDataset(snapshot.source)
  const built = performance.now()
  const text = new InvertedTextIndex(snapshot.index, dataset.cities)
  const done = performance.now()
  return { dataset, text, from, timings: { read: read - started, dataset: built - read, index: done - built } }
}
