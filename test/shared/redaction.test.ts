import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor, REDACTED, secretForms } from '../../src/shared/security/redaction'

/** Node's own base64, the reference the redaction's encoder is held to. */
const encoded = (bytes: Buffer, alphabet: 'base64' | 'base64url') => bytes.toString(alphabet)

/** Decodes every base64 run of the text at each offset, in both alphabets: whether any holds the secret. */
function decodesTo(text: string, secret: string): boolean {
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/')
    for (let offset = 0; offset < 4; offset++) {
      const part = standard.slice(offset)
      if (Buffer.from(part.slice(0, part.length - (part.length % 4)), 'base64').includes(Buffer.from(secret))) return true
    }
  }
  return false
}

describe('redaction of a secret in every spelling', () => {
  it('finds a secret of 8 characters or more inside any base64 or base64url text, whatever comes before and after it', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 80 }),
        fc.uint8Array({ maxLength: 12 }),
        fc.uint8Array({ maxLength: 12 }),
        fc.constantFrom('base64' as const, 'base64url' as const),
        (secret, before, after, alphabet) => {
          const text = encoded(Buffer.concat([before, Buffer.from(secret), after]), alphabet)
          const redactor = createRedactor()
          redactor.add(secret)
          const clean = redactor.scrub(`echo: ${text} end`)
          expect(clean).toContain(REDACTED)
          expect(decodesTo(clean, secret)).toBe(false)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('replaces the secret as written, and the Authorization header and Basic pair a server echoes', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJl+/=='
    const secret = 'canary-s3cr3t/with+signs'
    const redactor = createRedactor()
    redactor.add(token)
    redactor.add(secret)
    const echoed = [token, encoded(Buffer.from(`Bearer ${token}`), 'base64'), encoded(Buffer.from(`client:${secret}`), 'base64url'), encoded(Buffer.from(`c:${secret}`), 'base64')]
    for (const text of echoed) {
      const clean = redactor.scrub(`the server said ${text}.`)
      expect(clean).toContain(REDACTED)
      expect(clean.includes(token) || decodesTo(clean, token) || decodesTo(clean, secret)).toBe(false)
    }
  })

  it('leaves short secrets and ordinary text alone', () => {
    expect(secretForms('abc')).toEqual([])
    const redactor = createRedactor()
    redactor.add('abc')
    redactor.add('a-long-enough-secret')
    expect(redactor.scrub('abc and the rest')).toBe('abc and the rest')
  })
})
