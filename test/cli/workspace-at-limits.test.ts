import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { bigWorkspace } from '../fixtures/big-workspace'
import { cli, WORLD } from './spawn-cli'

/**
 * The CLI on a workspace file at the schema's limits (10,000 queries and
 * 200,000 judgments, as the app writes them): `test` and `eval` run on the
 * embedded demo; `test --update-snapshots` keeps the file's mode and layout.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-limits-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the CLI on workspace files at the limits', () => {
  it('runs `test`, and `eval` of a set inside a file of 10,000 queries and 200,000 judgments', async () => {
    const path = join(dir, 'big.qxw.json')
    writeFileSync(path, serializeWorkspace(bigWorkspace()))
    const tested = await cli(['test', path])
    expect(tested.stderr).toBe('')
    expect(tested.status).toBe(0)
    expect(tested.stdout).toMatch(/^9 passed, 0 failed in [\d.]+ s on Demo \(the embedded demo service\)$/m)
    // The example's set (36 queries) of the same file, at a small depth: the big set's own size is what is under test here.
    const evaluated = await cli(['eval', path, '--set', 'World cities (synthetic judgments)', '--depth', '10', '--metrics', 'ndcg@10'])
    expect(evaluated.stderr).toBe('')
    expect(evaluated.status).toBe(0)
    expect(evaluated.stdout).toContain('Evaluating "World cities (synthetic judgments)" of big.qxw.json (36 queries)')
  })

  it('`test --update-snapshots` keeps a 0644 file 0644, and a compact one compact, and `test` then reads it', async () => {
    const grep = ['--grep', 'top 5', '--config', 'production']
    for (const [name, text] of [
      ['readable.qxw.json', readFileSync(WORLD, 'utf8')],
      ['compact.qxw.json', JSON.stringify(JSON.parse(readFileSync(WORLD, 'utf8')))],
    ] as const) {
      const path = join(dir, name)
      writeFileSync(path, text)
      chmodSync(path, 0o644)
      const update = await cli(['test', path, ...grep, '--update-snapshots'])
      expect(update.stdout).toContain(`Recorded 1 snapshot in ${name}.`)
      expect(statSync(path).mode & 0o777).toBe(0o644)
      const written = readFileSync(path, 'utf8')
      expect(written.includes('\n')).toBe(text.includes('\n'))
      expect((await cli(['test', path, ...grep])).status).toBe(0)
    }
  })
})
