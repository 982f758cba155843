import { readFile } from 'node:fs/promises'
import type { Clock } from '../shared/time/clock'

/**
 * What a command may touch of the outside world. Commands get it passed in,
 * so tests can run them in-process and later commands (`run`) can add what
 * they need (a data directory, an HTTP client) without touching the others.
 */
export interface CliIo {
  /** Writes one line (a newline is added) to standard output. */
  out(text: string): void
  /** Writes one line (a newline is added) to standard error. */
  err(text: string): void
  /** Reads a file's text, or standard input for `-`. */
  readInput(source: string): Promise<string>
  /** The environment a secret may come from (tests pass their own); the process's when left out. */
  env?: NodeJS.ProcessEnv
  /** What waits (a 429's Retry-After) sleep on; the system clock when left out. */
  clock?: Clock
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(`${text}\n`),
    err: (text) => void process.stderr.write(`${text}\n`),
    readInput: async (source) => {
      const text = source === '-' ? await readStdin() : await readFile(source, 'utf8')
      // Editors on some systems save a byte order mark, which JSON.parse refuses.
      return text.startsWith('\uFEFF') ? text.slice(1) : text
    },
  }
}
