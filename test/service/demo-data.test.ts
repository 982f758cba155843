import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDemoData, type DemoData } from '../../src/service/dataset/demo-data'
import { loadDataset } from '../../src/service/dataset/load'
import { Ref } from '../../src/service/dataset/model'
import { encodeSnapshot } from '../../src/service/dataset/snapshot'
import { snapshotKey, snapshotPath, type SnapshotStore } from '../../src/service/dataset/snapshot-cache'
import { buildTextIndex } from '../../src/service/dataset/text-index'
import { tinySnapshot } from '../fixtures/tiny-dataset'

/**
 * The dataset and its index as the service opens them: the same from the
 * snapshot as from the npm packages, and a snapshot that is damaged, cut
 * short, made for another key or impossible to write costs a rebuild, never
 * a failed start.
 */

const QUERIES = ['san', 'são paulo', 'new york', 'paris paris', 'zzqx', 'frankf']

/** A dataset as comparable data (key order included): references by target id, typed arrays and maps as lists. */
function plain(value: unknown): unknown {
  if (value instanceof Ref) return { ref: value.target.id }
  if (value instanceof Map) return [...value].map(([key, item]) => [key, plain(item)])
  if (ArrayBuffer.isView(value)) return Array.from(value as Uint8Array)
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]))
  return value
}

const scores = (data: Pick<DemoData, 'text'>, query: string) => data.text.search(query).map((hit) => [hit.ordinal, hit.score])

describe('the demo data through the snapshot cache', () => {
  let directory: string
  let store: SnapshotStore
  let fromPackages: DemoData
  const logs: string[] = []
  const log = (message: string) => void logs.push(message)
  const open = () => openDemoData({ store, log })

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'qe-snapshot-'))
    store = { directory: join(directory, 'cache'), key: snapshotKey() }
    fromPackages = open()
  })
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('is made on the first start and used by the next, which opens the same dataset and index', () => {
    expect(fromPackages.from).toBe('packages')
    const fromSnapshot = open()
    expect(fromSnapshot.from).toBe('snapshot')
    expect(logs).toEqual([])
    const direct = loadDataset()
    // As text: a structural diff of 135,000 cities takes longer than it helps.
    expect(JSON.stringify(plain(fromSnapshot.dataset)) === JSON.stringify(plain(direct))).toBe(true)
    const built = { text: buildTextIndex(direct.cities) }
    for (const query of QUERIES) expect(scores(fromSnapshot, query)).toEqual(scores(built, query))
    expect(fromSnapshot.text.search('são paulo')[0]!.object).toBe(fromSnapshot.dataset.cities[fromSnapshot.text.search('são paulo')[0]!.ordinal])
  })

  it.each([
    ['cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ['damaged', (bytes: Buffer) => Buffer.concat([bytes.subarray(0, 4096), Buffer.from([bytes[4096]! ^ 1]), bytes.subarray(4097)])],
    ['empty', () => Buffer.alloc(0)],
    ['made for another key', () => encodeSnapshot(tinySnapshot(), store.key.replace(/^format \d+/, 'format 0'))],
  ])('is rebuilt when it is %s', (_, spoil) => {
    const path = snapshotPath(store)
    writeFileSync(path, spoil(readFileSync(path)))
    logs.length = 0
    const reopened = open()
    expect(reopened.from).toBe('packages')
    expect(logs).toEqual([expect.stringMatching(/^the dataset snapshot could not be used \(.+\); rebuilding it$/)])
    for (const query of QUERIES) expect(scores(reopened, query)).toEqual(scores(fromPackages, query))
    expect(open().from).toBe('snapshot')
  })

  it('still opens the data when the snapshot cannot be written, and says so', () => {
    const blocked = join(directory, 'a-file')
    writeFileSync(blocked, '')
    logs.length = 0
    const data = openDemoData({ store: { directory: join(blocked, 'cache'), key: store.key }, log })
    expect(data.from).toBe('packages')
    expect(data.dataset.cities.length).toBe(fromPackages.dataset.cities.length)
    expect(logs).toEqual([expect.stringMatching(/^the dataset snapshot could not be stored \(.+\); the next start indexes again$/)])
  })
})
