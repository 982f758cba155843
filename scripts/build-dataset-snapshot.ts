/**
 * `npm run build`'s last step: makes the demo service's dataset snapshot
 * (src/service/dataset/snapshot-cache.ts) unless one that fits is there, so
 * that the first start after a fresh clone and build reads it instead of
 * decoding and indexing the packages. Run it alone with
 * `npx tsx scripts/build-dataset-snapshot.ts`.
 */
import { ensureSnapshot } from '../src/service/dataset/demo-data'
import { defaultSnapshotStore, snapshotPath } from '../src/service/dataset/snapshot-cache'

const store = defaultSnapshotStore()
let failed = false
const { from } = ensureSnapshot(store, (message) => {
  failed = failed || message.includes('could not be stored')
  process.stderr.write(`build-dataset-snapshot: ${message}\n`)
})
// The service starts without a snapshot too (only slower), so a read-only node_modules fails nothing.
if (!failed) process.stdout.write(`dataset snapshot ${from === 'snapshot' ? 'already up to date' : 'written'}: ${snapshotPath(store)}\n`)
