import { describe, expect, it } from 'vitest'
import { SnapshotError, decodeSnapshot, encodeSnapshot } from '../../src/service/dataset/snapshot'
import { tinySnapshot } from '../fixtures/tiny-dataset'

/**
 * The dataset snapshot's format: what it stores comes back as it was, and a
 * file made for another key, cut short or damaged is refused, never trusted.
 */

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
