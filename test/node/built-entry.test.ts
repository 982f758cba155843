import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtEntry, MissingBuiltEntry } from '../../src/node/built-entry'

/**
 * How main's threads, the service's query thread and the demo service's
 * process find their entry once built: a sibling bundle of the code that
 * starts them, which may sit beside it or in a chunks/ folder below; the
 * first name that exists wins (the service's worker is .js in out/main/, .cjs
 * in out/cli/). Real files in a temporary folder.
 */

describe('a built entry', () => {
  let out: string
  const file = (path: string, text = '') => {
    writeFileSync(join(out, path), text)
    return join(out, path)
  }
  afterEach(() => rmSync(out, { recursive: true, force: true }))

  it('is found beside its caller or one folder up (a caller in chunks/), under the first name that exists', () => {
    out = mkdtempSync(join(tmpdir(), 'qe-built-entry-'))
    mkdirSync(join(out, 'chunks'))
    const cjs = file('query-worker.cjs')
    expect(builtEntry(join(out, 'chunks', 'shared-abc.js'), ['query-worker.js', 'query-worker.cjs'])).toBe(cjs)
    const js = file('query-worker.js')
    expect(builtEntry(join(out, 'chunks', 'shared-abc.js'), ['query-worker.js', 'query-worker.cjs'])).toBe(js)
    const beside = file(join('chunks', 'query-worker.js'))
    expect(builtEntry(join(out, 'chunks', 'shared-abc.js'), ['query-worker.js'])).toBe(beside)
  })

  it('that is missing is named, with where it was looked for and how to make it', () => {
    out = mkdtempSync(join(tmpdir(), 'qe-built-entry-'))
    const missing = () => builtEntry(join(out, 'index.js'), ['export-writer.js', 'export-writer.cjs'])
    expect(missing).toThrow(MissingBuiltEntry)
    expect(missing).toThrow(`export-writer.js is missing next to ${out}; build the app (npm run build)`)
  })
})
