/**
 * The one redaction of secrets and tokens, wherever text leaves the process
 * (the log, error messages, a server's answer before it is read, the command
 * line's output and files). A server may echo what it was sent in another
 * spelling than the one sent: an `Authorization` header base64'd in a debug
 * page, a `client:secret` pair as HTTP Basic encodes it. So a secret is
 * looked for as written and in base64 and base64url, at each of the three
 * places it can start within a larger base64'd text ("Bearer <token>",
 * "<client>:<secret>"): those give three different spellings of its middle.
 */

export const REDACTED = '[redacted]'

/** A secret shorter than this is not redacted as written: it would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4
/** An encoded spelling shorter than this is not looked for: a few base64 letters occur by chance. */
const MIN_ENCODED_LENGTH = 8

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Unpadded base64 of the bytes. */
function base64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!
    const b = bytes[i + 1] ?? 0
    const c = bytes[i + 2] ?? 0
    out += BASE64[a >> 2]! + BASE64[((a & 3) << 4) | (b >> 4)]!
    if (i + 1 < bytes.length) out += BASE64[((b & 15) << 2) | (c >> 6)]!
    if (i + 2 < bytes.length) out += BASE64[c & 63]!
  }
  return out
}

/**
 * The base64 letters that depend on the secret's bytes alone when it starts
 * `offset` bytes (0, 1 or 2) into a 3-byte group: the letters shared with the
 * bytes before it (2 at offset 1, 3 at offset 2) and after it are left out,
 * as the text around the secret decides them.
 */
function encodedMiddle(bytes: Uint8Array, offset: 0 | 1 | 2): string {
  const padded = new Uint8Array(offset + bytes.length)
  padded.set(bytes, offset)
  const whole = base64(padded)
  const skip = [0, 2, 3][offset]!
  const length = offset + bytes.length
  const rest = length % 3
  // A last group the secret only partly fills: its first `rest` letters are the secret's, the next mixes in what follows.
  const end = Math.floor(length / 3) * 4 + rest
  return whole.slice(skip, end)
}

/**
 * Every spelling of a secret that redaction looks for: the secret as
 * written, and its base64 and base64url at each offset. Longest first, so a
 * longer spelling is replaced whole before a shorter one could cut into it.
 */
export function secretForms(secret: string): readonly string[] {
  const known = recentForms.get(secret)
  if (known) return known
  const forms = formsOf(secret)
  // Every answer to a query is scrubbed of its token: the same few secrets, asked for again and again.
  recentForms.set(secret, forms)
  if (recentForms.size > 64) recentForms.delete(recentForms.keys().next().value!)
  return forms
}

const recentForms = new Map<string, readonly string[]>()

function formsOf(secret: string): readonly string[] {
  if (secret.length < MIN_SECRET_LENGTH) return []
  const bytes = new TextEncoder().encode(secret)
  const forms = new Set<string>([secret])
  for (const offset of [0, 1, 2] as const) {
    const middle = encodedMiddle(bytes, offset)
    if (middle.length < MIN_ENCODED_LENGTH) continue
    forms.add(middle)
    forms.add(middle.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...forms].sort((a, b) => b.length - a.length)
}

/** The text with every occurrence of each form replaced by [redacted]. */
export function redactForms(text: string, forms: Iterable<string>): string {
  let clean = text
  for (const form of forms) if (clean.includes(form)) clean = clean.split(form).join(REDACTED)
  return clean
}

export interface Redactor {
  /** A secret or token this process holds: from now on, none of its spellings passes `scrub`. */
  add(secret: string): void
  scrub(text: string): string
}

/** Redaction of the secrets added so far; bounded, as a long run issues many tokens (the oldest go first). */
export function createRedactor(max = 1_000): Redactor {
  const known = new Map<string, readonly string[]>()
  return {
    add(secret) {
      if (known.has(secret)) return
      const forms = secretForms(secret)
      if (forms.length === 0) return
      known.set(secret, forms)
      if (known.size > max) known.delete(known.keys().next().value!)
    },
    scrub(text) {
      let clean = text
      for (const forms of known.values()) clean = redactForms(clean, forms)
      return clean
    },
  }
}
