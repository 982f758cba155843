import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { endianness } from 'node:os'
import { join } from 'node:path'
import { decodeSnapshot, encodeSnapshot, type Snapshot } from './snapshot'
import { sourceModulesDirectory, sourceVersions } from './source'

/**
 * Where a dataset snapshot is kept and whether one fits. It lives next to the
 * packages it is made from (node_modules/.cache/query-explorer/), found from
 * wherever the service runs (sources, tsx, the built bundles), and a fresh
 * clone gets it from `npm run build` or else from its first start. A file
 * that is missing, damaged or made for something else is rebuilt, never
 * trusted: the cost of a bad guess is one slow start.
 */

/**
 * Bump whenever the snapshot's layout, or anything that decides its content,
 * changes: source.ts's columns, analysis.ts's terms, inverted-index.ts.
 */
export const SNAPSHOT_FORMAT = 2

export interface SnapshotStore {
  directory: string
  /** What the snapshot must have been made for; stored in it and checked on read. */
  key: string
}

/**
 * The source packages' versions, this format, and what the bytes and terms
 * depend on in the runtime: byte order (typed arrays are stored raw) and the
 * Unicode version (tokenizing and folding follow it).
 */
export function snapshotKey(): string {
  const versions = Object.entries(sourceVersions()).map(([name, version]) => `${name}@${version}`)
  return [`format ${SNAPSHOT_FORMAT}`, ...versions, `byte order ${endianness()}`, `unicode ${process.versions.unicode ?? 'unknown'}`].join('; ')
}

export function defaultSnapshotStore(): SnapshotStore {
  return { directory: join(sourceModulesDirectory(), '.cache', 'query-explorer'), key: snapshotKey() }
}

export function snapshotPath(store: SnapshotStore): string {
  const digest = createHash('sha256').update(store.key).digest('hex').slice(0, 16)
  return join(store.directory, `dataset-${digest}.bin`)
}

export type SnapshotRead = { snapshot: Snapshot } | { snapshot: null; problem: string | null }

/** The stored snapshot, or null with why it is unusable (problem null: there is none yet). */
export function readSnapshot(store: SnapshotStore): SnapshotRead {
  let bytes: Buffer
  try {
    bytes = readFileSync(snapshotPath(store))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { snapshot: null, problem: null }
    return { snapshot: null, problem: (error as Error).message }
  }
  try {
    return { snapshot: decodeSnapshot(bytes, store.key) }
  } catch (error) {
    return { snapshot: null, problem: (error as Error).message }
  }
}

/**
 * Writes to a file of its own, then renames it into place: a reader (another
 * service starting, a parallel test) sees the old file or the whole new one.
 * Returns why it could not, or null.
 */
export function writeSnapshot(store: SnapshotStore, snapshot: Snapshot): string | null {
  const path = snapshotPath(store)
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const bytes = encodeSnapshot(snapshot, store.key)
    mkdirSync(store.directory, { recursive: true })
    writeFileSync(temporary, bytes)
    renameSync(temporary, path)
    return null
  } catch (error) {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // A folder we cannot write to holds no temporary file either.
    }
    return (error as Error).message
  }
}
