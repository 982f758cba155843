import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createRedactor } from '../../shared/security/redaction'

export interface Logger {
  info(message: string): void
  error(message: string, error?: unknown): void
  /** Strings that must never reach a log line (secrets, tokens), replaced if they ever do. */
  redact(secret: string): void
  /** The same redaction for any other text leaving the main process (error messages). */
  scrub(text: string): string
}

/**
 * Appends JSON lines (`{"time","level","message"}`) to `<dataDir>/logs/main.log`. Callers never pass secrets; the
 * redaction list and the Bearer pattern are a second line of defence.
 */
export function createLogger(dataDir: string, echo = false): Logger {
  const dir = join(dataDir, 'logs')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'main.log')
  // Every spelling of each secret (as written, base64, base64url): see shared/security/redaction.ts.
  const secrets = createRedactor()
  const scrub = (text: string) => secrets.scrub(text).replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer [redacted]')
  const write = (level: string, message: string) => {
    // One JSON object a line: a server's text with CR, LF or ESC in it stays inside its string and cannot forge a line.
    const line = JSON.stringify({ time: new Date().toISOString(), level, message: scrub(message) })
    try {
      appendFileSync(file, line + '\n', { mode: 0o600 })
    } catch {
      // a full disk must not take the app down
    }
    if (echo) process.stderr.write(line + '\n')
  }
  return {
    info: (message) => write('INFO', message),
    error: (message, error) => write('ERROR', error ? `${message}: ${describe(error)}` : message),
    redact: (secret) => secrets.add(secret),
    scrub,
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`
  return String(error)
}
