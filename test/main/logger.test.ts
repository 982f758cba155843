import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/main/logging/logger'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The main process's log: one JSON object a line in <dataDir>/logs/main.log,
 * private to the user, every secret it was told of (in every spelling) and
 * any Bearer token replaced, a line that cannot be forged by a server's text.
 */

const lines = (dir: string) =>
  readFileSync(join(dir, 'logs', 'main.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { time: string; level: string; message: string })

describe('logger', () => {
  const tempDir = useTempDirs('qe-logger')

  it('appends one JSON line a message, with its time and level, to a file only its owner reads', () => {
    const dir = tempDir()
    const log = createLogger(dir)
    log.info('started')
    log.error('export 1: failed', new RangeError('too far'))
    log.error('plain failure')
    const [info, error, plain] = lines(dir)
    expect(info).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'INFO', message: 'started' })
    expect(error!.level).toBe('ERROR')
    expect(error!.message).toMatch(/^export 1: failed: RangeError: too far\n/)
    expect(plain!.message).toBe('plain failure')
    expect(statSync(join(dir, 'logs', 'main.log')).mode & 0o777).toBe(0o600)
  })

  it('a server\'s text with line ends or escapes stays inside its line', () => {
    const dir = tempDir()
    const log = createLogger(dir)
    log.info('said: x\n{"time":"forged","level":"INFO","message":"forged"}\r\u001b[2J')
    expect(lines(dir)).toHaveLength(1)
    expect(lines(dir)[0]!.message).toBe('said: x\n{"time":"forged","level":"INFO","message":"forged"}\r\u001b[2J')
  })

  it('replaces every spelling of a secret it was told of, and any Bearer token, in lines and in scrubbed text', () => {
    const dir = tempDir()
    const log = createLogger(dir)
    const secret = 'client-secret-of-the-test'
    log.redact(secret)
    const base64 = Buffer.from(secret).toString('base64')
    log.info(`secret ${secret}, encoded ${base64}, header Authorization: Bearer eyJhbGciOi.x.y, bearer abc`)
    const message = lines(dir)[0]!.message
    // A token runs to the next space or quote (its comma with it); the last base64 letters of a partly filled group stay
    // (they depend on what follows the secret: shared/security/redaction.ts).
    expect(message).toBe('secret [redacted], encoded [redacted]A==, header Authorization: Bearer [redacted] Bearer [redacted]')
    expect(log.scrub(`The service echoed ${secret}`)).toBe('The service echoed [redacted]')
    // A secret not told of is not touched.
    expect(log.scrub('other words')).toBe('other words')
  })
})
