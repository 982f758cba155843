import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { DATA_STORE_FILE } from '../../src/main/storage/data-store/data-store'
import type { SaveReply } from '../../src/main/workspaces/workspace-file-io'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace, WORLD_FILE } from '../fixtures/big-workspace'
import { confirmedBeforeKill } from '../fixtures/killed-child'
import { call, openCore, uploadText } from './support'

/**
 * A rating is durable at once: it is appended to the data folder's journal
 * before its reply, over a set of 200,000 judgments, and a host killed with
 * SIGKILL in the middle of rating gives back, on restart, every rating it
 * confirmed, with the workspace saying it has unsaved changes.
 */

const WORLD_SET = 'World cities (synthetic judgments)'

/** The journal's rows, read as another tool would read the database. */
function journal(dataDir: string): { item: string; grade: number | null }[] {
  const db = new Database(join(dataDir, DATA_STORE_FILE), { readonly: true })
  try {
    return (db.prepare('SELECT item, grade FROM ratings ORDER BY seq').raw(true).all() as [string, number | null][]).map(([item, grade]) => ({ item, grade }))
  } finally {
    db.close()
  }
}

describe('ratings journaled in the data folder', () => {
  let dir: string
  const cores: AppCore[] = []
  const opens: string[] = []
  const dialogs: FileDialogs = { chooseOpen: async () => opens.shift() ?? null, chooseSave: async () => null }
  const core = async (dataDir: string, host: 'electron' | 'browser' = 'electron') => {
    const opened = await openCore(dataDir, { echoLog: false, host, dialogs })
    cores.push(opened)
    return opened
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-rating-journal-'))
  })
  afterAll(async () => {
    for (const app of cores) await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('journals a rating of a 200,000-judgment set before its reply, takes it in place, and Save writes it and empties the journal', async () => {
    const path = join(dir, 'big.qxw.json')
    // Rated by the user the app runs as, so the window's ratings re-grade that rater's own.
    writeFileSync(path, serializeWorkspace(bigWorkspace(userInfo().username)))
    const dataDir = join(dir, 'data-big')
    const app = await core(dataDir)
    opens.push(path)
    await call<WorkspaceView>(app, 'workspace:open', {})
    const before = await call<QuerySet>(app, 'sets:get', { name: BIG_SET })
    const first = before.judgments[0]!
    const last = before.judgments.at(-1)!
    const regrade = first.grade === 0 ? 1 : 0
    // The set is full (200,000): a re-rating keeps its judgment's place; a cleared one makes room for a new one.
    const rated = await call<WorkspaceView>(app, 'sets:rate', { set: BIG_SET, query: first.query, item: first.item, grade: regrade })
    expect(rated.dirty).toBe(true)
    const full = await app.dispatch('sets:rate', { set: BIG_SET, query: 'q00001', item: 'doc-new', grade: 3 })
    expect(full.ok ? null : full.error.message).toMatch(/holds 200,000 judgments, as many as a set may/)
    await call<WorkspaceView>(app, 'sets:rate', { set: BIG_SET, query: last.query, item: last.item, grade: null })
    await call<WorkspaceView>(app, 'sets:rate', { set: BIG_SET, query: 'q00001', item: 'doc-new', grade: 3 })
    expect(journal(dataDir)).toEqual([
      { item: first.item, grade: regrade },
      { item: last.item, grade: null },
      { item: 'doc-new', grade: 3 },
    ])
    const after = await call<QuerySet>(app, 'sets:get', { name: BIG_SET })
    expect(after.judgments.length).toBe(200_000)
    expect(after.judgments[0]).toMatchObject({ query: first.query, item: first.item, grade: regrade })
    expect(after.judgments.at(-1)).toMatchObject({ query: 'q00001', item: 'doc-new', grade: 3 })
    // A grade off the scale is refused naming it, and nothing is journaled.
    const refused = await app.dispatch('sets:rate', { set: BIG_SET, query: 'q00001', item: 'doc-new', grade: 42 })
    expect(refused.ok ? null : refused.error.message).toMatch(/grade: 42 is not a grade of the set's scale/)
    expect(journal(dataDir)).toHaveLength(3)

    const saved = await call<SaveReply>(app, 'workspace:save', {})
    expect(saved.workspace?.dirty).toBe(false)
    expect(readFileSync(path, 'utf8')).toMatch(/"item": ?"doc-new"/)
    expect(journal(dataDir)).toEqual([])
  })

  it('still takes a rating when the database cannot be written, keeping it in the session file instead', async () => {
    const dataDir = join(dir, 'data-newer')
    mkdirSync(dataDir)
    // A database from a newer app: left as it is, so the journal cannot be written.
    const newer = new Database(join(dataDir, DATA_STORE_FILE))
    newer.exec('PRAGMA user_version = 999')
    newer.close()
    const first = await core(dataDir, 'browser')
    await call<WorkspaceView>(first, 'workspace:import', { upload: await uploadText(first, 'world.qxw.json', readFileSync(WORLD_FILE, 'utf8')) })
    const rated = await call<WorkspaceView>(first, 'sets:rate', { set: WORLD_SET, query: 'q01', item: 'kept-anyway', grade: 2 })
    expect(rated.dirty).toBe(true)
    const again = await core(dataDir, 'browser')
    const set = await call<QuerySet>(again, 'sets:get', { name: WORLD_SET })
    expect(set.judgments).toContainEqual(expect.objectContaining({ query: 'q01', item: 'kept-anyway', grade: 2 }))
    expect((await call<{ workspace: WorkspaceView }>(again, 'workspace:current', {})).workspace.dirty).toBe(true)
  })

  it('gives back every rating a host confirmed before it was killed with SIGKILL, and says the workspace is unsaved', async () => {
    const dataDir = join(dir, 'data-killed')
    const support = pathToFileURL(resolve('test/main/support.ts')).href
    // The child opens the example, rates new items as fast as its replies come, and prints each once confirmed.
    const code = `import(${JSON.stringify(support)}).then(async (loaded) => {
      const { openCore, call, uploadText } = loaded.openCore ? loaded : loaded.default
      const core = await openCore(${JSON.stringify(dataDir)}, { echoLog: false })
      const text = require('node:fs').readFileSync(${JSON.stringify(WORLD_FILE)}, 'utf8')
      await call(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', text) })
      for (let n = 0; ; n++) {
        await call(core, 'sets:rate', { set: ${JSON.stringify(WORLD_SET)}, query: 'q01', item: 'killed-' + n, grade: n % 4 })
        process.stdout.write('killed-' + n + '\\n')
      }
    })`
    const confirmed = await confirmedBeforeKill(code, 60)
    const again = await core(dataDir, 'browser')
    const { workspace } = await call<{ workspace: WorkspaceView }>(again, 'workspace:current', {})
    expect(workspace.dirty).toBe(true)
    const set = await call<QuerySet>(again, 'sets:get', { name: WORLD_SET })
    const kept = new Map(set.judgments.filter((judgment) => judgment.query === 'q01').map((judgment) => [judgment.item, judgment.grade]))
    expect(confirmed.filter((item) => kept.get(item) !== Number(item.slice('killed-'.length)) % 4)).toEqual([])
  })

  it("gives back every grade an LLM judge's run counted before the host was killed, with its explanation and prompt digest", async () => {
    const dataDir = join(dir, 'data-judge-killed')
    const support = pathToFileURL(resolve('test/main/support.ts')).href
    // The child opens the example on the embedded demo and judges with its demo judge, printing each graded count the run's status shows.
    const code = `import(${JSON.stringify(support)}).then(async (loaded) => {
      const { openCore, call, uploadText } = loaded.openCore ? loaded : loaded.default
      const core = await openCore(${JSON.stringify(dataDir)}, { echoLog: false, demo: 'embedded' })
      const text = require('node:fs').readFileSync(${JSON.stringify(WORLD_FILE)}, 'utf8')
      await call(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', text) })
      await call(core, 'judges:start', { runId: 'run', judge: 'demo', set: ${JSON.stringify(WORLD_SET)}, depth: 20, budgetCalls: 5000, scope: 'all' })
      let shown = 0
      for (;;) {
        const status = await call(core, 'judges:status', { runId: 'run' })
        if (status.graded + status.cached > shown) {
          shown = status.graded + status.cached
          process.stdout.write(shown + '\\n')
        }
        if (status.state !== 'running') break
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      process.stdout.write('ended\\n')
      await new Promise(() => undefined)
    })`
    const confirmed = await confirmedBeforeKill(code, 8)
    const counted = Math.max(...confirmed.filter((line) => /^\d+$/.test(line)).map(Number))
    expect(counted).toBeGreaterThan(0)
    const again = await core(dataDir, 'browser')
    const set = await call<QuerySet>(again, 'sets:get', { name: WORLD_SET })
    const graded = set.judgments.filter((judgment) => judgment.rater === 'llm:demo')
    expect(graded.length).toBeGreaterThanOrEqual(counted)
    for (const judgment of graded) {
      expect(judgment.explanation).toMatch(/\S/)
      expect(judgment.promptDigest).toMatch(/^[0-9a-f]{64}$/)
    }
  })
})
