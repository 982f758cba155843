import { createReadStream } from 'node:fs'
import { readBounded } from '../main/storage/bounded-read'
import type { Redactor } from '../shared/security/redaction'
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
  /** Reads a file's text, or standard input for `-`; past `maxBytes` it stops and throws InputTooLarge. */
  readInput(source: string, maxBytes: number): Promise<string>
  /** The environment a secret may come from (tests pass their own); the process's when left out. */
  env?: NodeJS.ProcessEnv
  /** What waits (a 429's Retry-After) sleep on; the system clock when left out. */
  clock?: Clock
  /**
   * The secrets and tokens of this run (a run target adds each it handles):
   * no spelling of them is printed (terminalSafeIo) or written to a file
   * (output-files.ts), whatever a server echoed. main gives every run one.
   */
  secrets?: Redactor
}

/** A file or standard input that holds more than a command reads: reading stopped at the bound. */
export class InputTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`)
    this.name = 'InputTooLarge'
  }
}

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(`${text}\n`),
    err: (text) => void process.stderr.write(`${text}\n`),
    readInput: async (source, maxBytes) => {
      const bytes = await readBounded(source === '-' ? process.stdin : createReadStream(source), maxBytes)
      if (bytes === null) throw new InputTooLarge(maxBytes)
      const text = bytes.toString('utf8')
      // Editors on some systems save a byte order mark, which JSON.parse refuses.
      return text.startsWith('\uFEFF') ? text.slice(1) : text
    },
  }
}
