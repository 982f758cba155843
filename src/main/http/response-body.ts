import { ExplorerError } from '../../shared/ipc/errors'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/json-depth'
import { ErrorBodySchema } from '../../shared/responses'
import { redactForms, secretForms } from '../../shared/security/redaction'

/**
 * Parses a JSON answer and bounds its nesting (MAX_JSON_DEPTH). A caller
 * whose own shape check bounds the depth as it goes (results pages) passes
 * `checkDepth: false` and reports `tooDeep` itself, so the answer is walked once.
 */
export function parseJson(body: Buffer, what: string, checkDepth = true): unknown {
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    throw notJson(what, body.length)
  }
  if (checkDepth && nestedDeeperThan(value)) throw tooDeep(what)
  return value
}

export function notJson(what: string, bytes: number): ExplorerError {
  return new ExplorerError('bad_response', `The ${what} is not valid JSON (${bytes} bytes received).`)
}

export function tooDeep(what: string): ExplorerError {
  return new ExplorerError('bad_response', `The ${what} is nested deeper than ${MAX_JSON_DEPTH} levels, which no real answer is; it was not read.`)
}

/**
 * The human sentence of an error body (`{"message": …}`), or a short plain-text
 * body; null for anything else (an HTML error page is not shown to the user).
 */
export function messageOf(body: Buffer): string | null {
  const text = body.toString('utf8').trim()
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text))
    if (parsed.success) return parsed.data.message.slice(0, 1_000)
  } catch {
    // not JSON: fall through
  }
  if (text && text.length <= 300 && !/^</.test(text)) return text
  return null
}

/**
 * A server may echo what it was sent (a debugging error page, a hostile
 * host): every occurrence of a token or secret we sent, as written or
 * base64'd (secretForms), is replaced before the body is read, so it can
 * reach neither an error message nor the window.
 */
export function scrubBody(body: Buffer, sent: readonly string[]): Buffer {
  const found = sent.flatMap(secretForms).filter((form) => body.indexOf(form) >= 0)
  if (found.length === 0) return body
  // As latin1 each byte is one character, so the bytes around a form come back as they were, whatever their encoding.
  const text = redactForms(body.toString('latin1'), found.map((form) => Buffer.from(form, 'utf8').toString('latin1')))
  return Buffer.from(text, 'latin1')
}
