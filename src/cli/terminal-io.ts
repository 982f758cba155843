import { terminalJson, terminalSafe } from '../shared/text/terminal-safe'
import type { CliIo } from './io'

/**
 * The io every command prints through (main wraps it once): a test name, a
 * connection name or a server's message is whatever a shared file or a
 * hostile host put there, and reaches the terminal inside a line the command
 * composed. Each out/err call is one line, so a control character, a CR or
 * a line feed in it is shown as an escape, never obeyed, and a bidi control
 * as ⟨U+202E⟩, never reordering the line (terminal-safe.ts). JSON goes
 * through writeJson, so it still parses back to the values sent. A secret or
 * token of the run, in any spelling a server echoed it in, is [redacted].
 */
export function terminalSafeIo(io: CliIo): CliIo {
  const scrub = io.secrets ? io.secrets.scrub : (text: string) => text
  return {
    ...io,
    out: (text) => io.out(terminalSafe(scrub(text))),
    err: (text) => io.err(terminalSafe(scrub(text))),
  }
}

/**
 * Text the command line composed over several lines on purpose (help, pretty
 * JSON, the service report), printed one line at a time so its line breaks
 * stay. Only for text whose values cannot hold a line feed of their own:
 * JSON.stringify escapes them inside strings.
 */
export function writeLines(write: (line: string) => void, text: string): void {
  for (const line of text.replace(/\n$/, '').split('\n')) write(line)
}

/**
 * JSON text (pretty or JSON Lines) printed one line at a time, its bidi
 * controls written as JSON escapes first: the out/err wrapper's ⟨U+202E⟩ would
 * change a name inside the JSON, the escape keeps it exact and still cannot
 * reorder the terminal's line.
 */
export function writeJson(write: (line: string) => void, json: string): void {
  writeLines(write, terminalJson(json))
}
