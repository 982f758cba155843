import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { WriterThreads } from '../../src/main/export/writer-thread'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * Format writers in real worker threads: pages cross to the thread and the
 * file is written there; an error crosses back as it was (an ExplorerError
 * with its code, a system error with its code); a cancel stops the export
 * at once; a thread serves export after export.
 */

describe('writer threads', () => {
  const tempDir = useTempDirs('qe-writer-thread')
  const threads = new WriterThreads()
  afterAll(() => threads.close())

  /** Where one export writes: its file and its spool, in a folder of its own. */
  const paths = () => {
    const dir = tempDir()
    return { file: join(dir, 'file'), spool: join(dir, 'spool') }
  }
  const page = (ranks: number[]) => Buffer.from(JSON.stringify({ offset: 0, count: ranks.length, type: ['city'], items: ranks.map((rank) => ({ rank, probability: 1, tuple: ['x'] })) }))

  it('writes an export on a thread, page by page, and the next export on a thread too', async () => {
    for (const ranks of [[1, 2, 3], [7]]) {
      const where = paths()
      const writer = await threads.start('json', where, 10, null, new AbortController().signal)
      expect(await writer.addPage(page(ranks), 2)).toBe(Math.min(2, ranks.length))
      await writer.finish(new AbortController().signal)
      const text = readFileSync(where.file, 'utf8')
      expect(JSON.parse(text).map((item: { rank: number }) => item.rank)).toEqual(ranks.slice(0, 2))
      expect(writer.bytes).toBe(Buffer.byteLength(text))
    }
  })

  it("brings the thread's errors back as they were: an ExplorerError's code and message, a system error's code", async () => {
    const writer = await threads.start('json', paths(), 10, null, new AbortController().signal)
    const error = await writer.addPage(Buffer.from('[1]'), 10).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ExplorerError)
    expect((error as ExplorerError).toIpc()).toEqual({ code: 'bad_response', message: "The service's json answer cannot be read: it is not a page of results (body: expected an object)." })
    await writer.abandon()

    const taken = paths()
    writeFileSync(taken.file, 'the user\'s')
    await expect(threads.start('json', taken, 10, null, new AbortController().signal)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(readFileSync(taken.file, 'utf8')).toBe('the user\'s')
  })

  it('a cancel fails the export as cancelled, and the next one still gets a thread', async () => {
    const cancel = new AbortController()
    const writer = await threads.start('json', paths(), 10, null, cancel.signal)
    cancel.abort()
    await expect(writer.addPage(page([1]), 10)).rejects.toMatchObject({ code: 'cancelled', message: 'The export was cancelled.' })
    await writer.abandon()
    const where = paths()
    const next = await threads.start('json', where, 10, null, new AbortController().signal)
    await next.finish(new AbortController().signal)
    expect(readFileSync(where.file, 'utf8')).toBe('[]\n')
  })
})
