import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

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
  const secrets = new Set<string>()
  const scrub = (text: string) => {
    let clean = text
    for (const secret of secrets) if (clean.includes(secret)) clean = clean.split(secret).join('[redacted]')
    return clean.replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer [redacted]')
  }
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
    redact: (secret) => {
      // Bounded: a long run issues many tokens; the oldest go first.
      if (secret.length < 4 || secrets.has(secret)) return
      secrets.add(secret)
      if (secrets.size > 1_000) secrets.delete(secrets.values().next().value!)
    },
    scrub,
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`
  return String(error)
}
