import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputTooLarge, processIo } from '../../src/cli/io'
import { useTempDirs, useTempFiles } from '../fixtures/temp-dirs'

/**
 * What a command reads of the outside world: a file's text through a bound,
 * a byte order mark dropped. (Standard input, `-`, is read the same way;
 * cli.test.ts pipes a request into the real launcher.)
 */

const tempDir = useTempDirs('qe-cli-io')
const file = useTempFiles('qe-cli-io')

describe('processIo().readInput', () => {
  const io = processIo()

  it("reads a file's text as UTF-8", async () => {
    expect(await io.readInput(file('plain.json', '{"city":"Zürich"}'), 1024)).toBe('{"city":"Zürich"}')
    expect(await io.readInput(file('empty.json', ''), 1024)).toBe('')
  })

  it('drops the byte order mark some editors save, and only at the start', async () => {
    expect(await io.readInput(file('bom.json', '\uFEFF{"a":1}'), 1024)).toBe('{"a":1}')
    expect(await io.readInput(file('inner.txt', 'a\uFEFFb'), 1024)).toBe('a\uFEFFb')
  })

  it('reads a file of exactly the bound, and stops one byte past it with InputTooLarge naming the bound', async () => {
    const exact = file('exact.txt', 'x'.repeat(64))
    expect(await io.readInput(exact, 64)).toBe('x'.repeat(64))
    const over = file('over.txt', 'x'.repeat(65))
    const error = await io.readInput(over, 64).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InputTooLarge)
    expect(error).toMatchObject({ name: 'InputTooLarge', maxBytes: 64, message: 'more than 64 bytes' })
  })

  it('stops reading an endless source at the bound instead of reading it whole', async () => {
    await expect(io.readInput('/dev/zero', 1024 * 1024)).rejects.toBeInstanceOf(InputTooLarge)
  })

  it("rejects a missing file with the system's code, for the command to name", async () => {
    await expect(io.readInput(join(tempDir(), 'missing.json'), 1024)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
