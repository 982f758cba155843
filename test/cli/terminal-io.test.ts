import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/cli/io'
import { terminalSafeIo, writeJson, writeLines } from '../../src/cli/terminal-io'
import { createRedactor } from '../../src/shared/security/redaction'

/**
 * The io every command prints through: a name from a shared file or a
 * server's message is shown, never obeyed by the terminal (control
 * characters and line breaks as escapes, bidi controls as ⟨U+…⟩), a secret
 * of the run is [redacted]; multi-line text and JSON keep their lines.
 */

function recording(secrets?: CliIo['secrets']): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (text) => void out.push(text), err: (text) => void err.push(text), readInput: async () => '', ...(secrets ? { secrets } : {}) }
  return { io, out, err }
}

describe('terminalSafeIo', () => {
  it('shows ESC sequences, BEL, CR, a line feed and a tab as escapes, and a bidi control by its code point, on one line', () => {
    const { io, out, err } = recording()
    const safe = terminalSafeIo(io)
    safe.out('Evil \u001b[2J \u001b]0;pwned\u0007 Invoice\u202Etxt.exe\n✓ fake pass\r\t')
    safe.err('Demo \u001b[31mred')
    expect(out).toEqual([String.raw`Evil \x1b[2J \x1b]0;pwned\x07 Invoice` + '⟨U+202E⟩' + String.raw`txt.exe\n✓ fake pass\r\t`])
    expect(err).toEqual([String.raw`Demo \x1b[31mred`])
  })

  it('passes plain text through as it is, one call one line', () => {
    const { io, out } = recording()
    terminalSafeIo(io).out('✓ q1 paris: 10 results (12 ms) — Zürich, 東京')
    expect(out).toEqual(['✓ q1 paris: 10 results (12 ms) — Zürich, 東京'])
  })

  it("writes [redacted] for every spelling of the run's secrets, on both streams", () => {
    const secrets = createRedactor()
    secrets.add('tok-secret-value')
    const { io, out, err } = recording(secrets)
    const safe = terminalSafeIo(io)
    safe.out('token tok-secret-value')
    safe.err(`echoed ${Buffer.from('tok-secret-value').toString('base64')}`)
    expect(out).toEqual(['token [redacted]'])
    // The base64 spelling is cut where its characters depend on the secret alone; the padding left says nothing.
    expect(err[0]).toMatch(/^echoed \[redacted\]/)
    expect(err[0]).not.toContain(Buffer.from('tok-secret-value').toString('base64').slice(0, 12))
  })
})

describe('writeLines and writeJson', () => {
  it('prints composed text a line at a time, its empty lines kept and its last line break dropped', () => {
    const lines: string[] = []
    writeLines((line) => lines.push(line), 'Usage: x\n\n  --help\n')
    expect(lines).toEqual(['Usage: x', '', '  --help'])
  })

  it('prints JSON a line at a time, a bidi control written as its JSON escape, so it parses back to the exact value', () => {
    const value = { name: 'Invoice\u202Etxt.exe', text: 'a\nb' }
    const lines: string[] = []
    writeJson((line) => lines.push(line), JSON.stringify(value, null, 2))
    expect(lines).toEqual(['{', '  "name": "Invoice\\u202etxt.exe",', '  "text": "a\\nb"', '}'])
    expect(JSON.parse(lines.join('\n'))).toEqual(value)
    // And through the terminal layer, nothing changes it further.
    const { io, out } = recording()
    const safe = terminalSafeIo(io)
    writeJson(safe.out, JSON.stringify(value))
    expect(JSON.parse(out.join('\n'))).toEqual(value)
  })
})
