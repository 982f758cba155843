import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import type { SaveReply } from '../../src/main/workspaces/workspace-file-io'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../fixtures/big-workspace'
import { call, openCore } from './support'

/**
 * Workspace files at the schema's limits, opened and saved through the
 * handler table as the Electron window asks (the native dialogs answered with
 * real paths): 10,000 queries and 200,000 judgments in the app's own form
 * open, save and open again; a compact file is never rewritten larger, so a
 * file near the bound can still be saved; a file keeps its permissions.
 */

const umask = process.umask()

describe('workspace files at the limits, through the handler table', () => {
  let dir: string
  const cores: AppCore[] = []
  const opens: string[] = []
  const saves: string[] = []
  const dialogs: FileDialogs = {
    chooseOpen: async () => opens.shift() ?? null,
    chooseSave: async () => saves.shift() ?? null,
  }
  const core = async (dataDir = join(dir, `data-${cores.length}`)) => {
    const opened = await openCore(dataDir, { echoLog: false, host: 'electron', dialogs })
    cores.push(opened)
    return opened
  }
  const open = (app: AppCore, path: string) => {
    opens.push(path)
    return call<WorkspaceView>(app, 'workspace:open', {})
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-ws-limits-'))
  })
  afterAll(async () => {
    for (const app of cores) await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('opens 10,000 queries and 200,000 judgments in the form the app writes, saves them unchanged and opens them again', async () => {
    const path = join(dir, 'big.qxw.json')
    const text = serializeWorkspace(bigWorkspace())
    writeFileSync(path, text)
    const app = await core()
    const view = await open(app, path)
    expect(view.dirty).toBe(false)
    const saved = await call<SaveReply>(app, 'workspace:save', {})
    expect(saved.workspace?.dirty).toBe(false)
    expect(readFileSync(path, 'utf8') === text).toBe(true)
    const again = await core()
    await open(again, path)
    const set = await call<{ queries: unknown[]; judgments: unknown[] }>(again, 'sets:get', { name: BIG_SET })
    expect([set.queries.length, set.judgments.length]).toEqual([10_000, 200_000])
  })

  it('saves a compact file compact: no larger with no change, and still one line after a rating', async () => {
    // As a tool writes it: one line, no white space. 110,000 judgments: under 5 MiB compact, over it readable.
    const big = bigWorkspace('r')
    const set = big.sets!.at(-1)!
    const compact = JSON.stringify({ ...big, sets: [...big.sets!.slice(0, -1), { ...set, judgments: set.judgments.slice(0, 110_000) }] })
    const path = join(dir, 'compact.qxw.json')
    writeFileSync(path, compact)
    const app = await core()
    await open(app, path)
    await call<SaveReply>(app, 'workspace:save', {})
    const unchanged = readFileSync(path, 'utf8')
    expect(Buffer.byteLength(unchanged)).toBeLessThanOrEqual(Buffer.byteLength(compact))
    expect(JSON.parse(unchanged)).toEqual(JSON.parse(compact))
    const rated = await call<WorkspaceView>(app, 'sets:rate', { set: BIG_SET, query: 'q00001', item: 'doc-new', grade: 3 })
    expect(rated.dirty).toBe(true)
    await call<SaveReply>(app, 'workspace:save', {})
    const after = readFileSync(path, 'utf8')
    expect(after).not.toContain('\n')
    expect(Buffer.byteLength(after)).toBeLessThan(Buffer.byteLength(compact) + 100)
  })

  it('keeps a compact file compact across a restart of the app', async () => {
    const path = join(dir, 'restarted.qxw.json')
    const compact = JSON.stringify(JSON.parse(readFileSync(join(__dirname, '../../examples/world.qxw.json'), 'utf8')))
    writeFileSync(path, compact)
    const dataDir = join(dir, 'data-restart')
    const first = await core(dataDir)
    await open(first, path)
    await first.close()
    cores.splice(cores.indexOf(first), 1)
    const second = await core(dataDir)
    await call<WorkspaceView>(second, 'sets:rate', { set: 'World cities (synthetic judgments)', query: 'q01', item: 'new-item', grade: 2 })
    await call<SaveReply>(second, 'workspace:save', {})
    const saved = readFileSync(path, 'utf8')
    expect(saved).not.toContain('\n')
    expect(saved).toMatch(/\{"query":"q01","item":"new-item","rater":"[^"]+","grade":2\}/)
  })

  it('keeps a file\'s mode when it saves over it, and gives a new file the usual one', async () => {
    const path = join(dir, 'shared.qxw.json')
    writeFileSync(path, readFileSync(join(__dirname, '../../examples/world.qxw.json')))
    chmodSync(path, 0o644)
    const app = await core()
    await open(app, path)
    await call<SaveReply>(app, 'workspace:save', {})
    expect(statSync(path).mode & 0o777).toBe(0o644)
    chmodSync(path, 0o640)
    await call<SaveReply>(app, 'workspace:save', {})
    expect(statSync(path).mode & 0o777).toBe(0o640)
    const other = join(dir, 'new.qxw.json')
    saves.push(other)
    await call<SaveReply>(app, 'workspace:save', { saveAs: true })
    expect(statSync(other).mode & 0o777).toBe(0o666 & ~umask)
  })
})
