import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { runFileName, runTag } from '../../src/main/evaluation/run-file'
import { EvalRunStatusSchema } from '../../src/shared/ipc/relevance-contract'
import type { Evaluation } from '../../src/shared/relevance/evaluation'
import { cliInProcess, WORLD } from '../cli/spawn-cli'
import { openDemoBench, type DemoBench } from './demo-bench'
import { keptEvaluation, runFileOf } from './kept-evaluation'
import { call, keychainMissing, untilEnded, uploadText } from './support'

/**
 * An evaluation's TREC run file: the window's Export TREC run (eval:run-file)
 * and `query-explorer eval --trec-run` write the same file for the same
 * evaluation, the run tag (its last column) included; the window offers it
 * under the one rule for file names. The window's side runs on a core of the
 * app with the real demo, the command line's on the demo it starts itself.
 */

const missing = await keychainMissing()
const SET = 'World cities (synthetic judgments)'

/** Each line's last column. */
const tags = (text: string) => new Set(text.trim().split('\n').map((line) => line.split(' ').at(-1)))

describe('the run tag and name of a run file', () => {
  it('is what the evaluation ran on as one word; the name is the set and target as written', () => {
    expect(runTag({ targetText: 'Demo, config production' })).toBe('demo-config-production')
    expect(runTag({ targetText: 'Staging EU, API places-v2, config default' })).toBe('staging-eu-api-places-v2-config-default')
    expect(runTag({ targetText: '···' })).toBe('query-explorer')
    expect(runFileName({ set: 'Italian cities', targetText: 'Demo, config default' })).toBe('Italian cities (Demo, config default).run.txt')
    expect(runFileName({ set: 'a/b', targetText: 'Demo\u202E' })).toBe('a b (Demo ).run.txt')
  })
})

describe.skipIf(missing !== null)("the window's Export TREC run and eval --trec-run", () => {
  let bench: DemoBench
  let core: AppCore
  const dir = mkdtempSync(join(tmpdir(), 'qe-run-file-'))

  beforeAll(async () => {
    bench = await openDemoBench('run-file')
    core = bench.core
    await call(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })
  })
  afterAll(async () => {
    await bench?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('write the same file for the same evaluation, tag included, and the window names it as written', async () => {
    await call(core, 'eval:start', { runId: 'run-file', set: SET, target: { connectionId: 'demo', config: 'production' }, depth: 10 })
    const status = await untilEnded(async () => EvalRunStatusSchema.parse(await call(core, 'eval:status', { runId: 'run-file' })))
    expect(status.state, status.message ?? '').toBe('done')
    const kept: Evaluation = await keptEvaluation(core, status.evaluationId!)
    const window = await runFileOf(core, kept.id)

    const path = join(dir, 'cli.run')
    const cli = await cliInProcess(['eval', WORLD, '--set', SET, '--config', 'production', '--depth', '10', '--trec-run', path])
    expect(cli.status, cli.stdout + cli.stderr).toBe(0)
    const written = readFileSync(path, 'utf8')

    expect([...tags(window.text)]).toEqual(['demo-config-production'])
    expect([...tags(written)]).toEqual(['demo-config-production'])
    expect(written).toBe(window.text)
    expect(window.fileName).toBe(`${SET} (Demo, config production).run.txt`)
  })
})
