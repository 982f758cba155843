import { createReadStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readBounded } from '../../src/main/storage/bounded-read'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Reading a source whole, up to a bound, never holding more than one chunk past it. */

describe('readBounded', () => {
  const tempDir = useTempDirs('qe-bounded')

  it('gives every byte of a file at the bound, and null one byte past it', async () => {
    const path = join(tempDir(), 'ten.txt')
    writeFileSync(path, '0123456789')
    expect((await readBounded(createReadStream(path), 10))?.toString()).toBe('0123456789')
    expect(await readBounded(createReadStream(path), 9)).toBeNull()
    expect((await readBounded(createReadStream(path, { highWaterMark: 3 }), 10))?.toString()).toBe('0123456789')
  })

  it('reads strings as UTF-8 bytes, and an empty source as no bytes', async () => {
    expect((await readBounded(Readable.from(['é', 'x']), 3))?.toString('utf8')).toBe('éx')
    expect(await readBounded(Readable.from(['é', 'x']), 2)).toBeNull()
    expect(await readBounded(Readable.from([]), 0)).toEqual(Buffer.alloc(0))
  })

  it('stops an endless source at the bound, and closes it', async () => {
    let pulled = 0
    const endless = new Readable({
      read() {
        pulled++
        this.push(Buffer.alloc(1024))
      },
    })
    expect(await readBounded(endless, 4096)).toBeNull()
    expect(endless.destroyed).toBe(true)
    // Never read further than the bound, the stream's own buffer and the chunk that crossed the bound.
    expect(pulled * 1024).toBeLessThanOrEqual(4096 + endless.readableHighWaterMark + 1024)
  })
})
