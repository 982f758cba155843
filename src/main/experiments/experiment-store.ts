import { storeRequests, type DataStore, type StoreRequests } from '../storage/data-store/data-store'

export { KEPT_EXPERIMENTS } from '../storage/data-store/store-protocol'

const REQUESTS = {
  /** Keeps the record (checked in the store's thread with the schema it is read with); its summary. */
  add: 'experiments.add',
  /** Summaries, newest first, of one set when named. */
  list: 'experiments.list',
  /** The record; null when none is kept by that id. */
  get: 'experiments.get',
} as const

// The requests are the class's own methods (made in the constructor): one declaration, here.
export interface ExperimentStore extends StoreRequests<typeof REQUESTS> {}

/** Kept experiments, in the data folder's database (experiments-table.ts), a row each; each side's evaluation is kept on its own. */
export class ExperimentStore {
  constructor(data: DataStore) {
    Object.assign(this, storeRequests(data, REQUESTS))
  }
}
