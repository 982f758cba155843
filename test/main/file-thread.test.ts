import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { fileThreadStages } from '../../src/main/workspaces/file-thread'
import type { SaveReply } from '../../src/main/workspaces/workspace-file-io'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import { withRating } from '../../src/shared/relevance/set-edits'
import { parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../fixtures/big-workspace'
import { confirmedBeforeKill } from '../fixtures/killed-child'
import { call, openCore } from './support'

/**
 * The workspace file thread (src/main/workspaces/file-thread.ts), over real
 * files and the real worker: a workspace of 200,000 judgments is saved off
 * main (the window is answered while the thread serializes it), the file it
 * writes opens again equal, keeps its mode and its compact layout, and a
 * process killed with SIGKILL while the thread writes leaves the previous
 * file whole.
 */

describe('workspace file thread', () => {
  let dir: string
  const cores: AppCore[] = []
  const opens: string[] = []
  const dialogs: FileDialogs = { chooseOpen: async () => opens.shift() ?? null, chooseSave: async () => null }
  const core = async () => {
    const opened = await openCore(join(dir, `data-${cores.length}`), { echoLog: false, host: 'electron', dialogs })
    cores.push(opened)
    return opened
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-file-thread-'))
  })
  afterAll(async () => {
    for (const app of cores) await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('saves 200,000 judgments after ratings while main answers the window; the file opens again equal, compact and with its mode', async () => {
    const path = join(dir, 'big.qxw.json')
    // Rated by the user the app runs as: the window's ratings re-grade and clear that rater's own.
    const big = bigWorkspace(userInfo().username)
    writeFileSync(path, serializeWorkspace(big, 'compact'))
    chmodSync(path, 0o640)
    const app = await core()
    opens.push(path)
    await call<WorkspaceView>(app, 'workspace:open', {})

    // A re-grade, a cleared judgment and a new one (the set is full before): the thread follows each by the rating, not by the set.
    const [first, second] = big.sets!.find((set) => set.name === BIG_SET)!.judgments
    const ratings = [
      { set: BIG_SET, query: first!.query, item: first!.item, grade: (first!.grade + 1) % 4 },
      { set: BIG_SET, query: second!.query, item: second!.item, grade: null },
      { set: BIG_SET, query: first!.query, item: 'doc-new', grade: 3 },
    ]
    for (const rating of ratings) await call<WorkspaceView>(app, 'sets:rate', rating)
    // Judge's ratings are made by the user the app runs as (relevance-handlers.ts).
    const expected = ratings.reduce<Workspace>((workspace, { set, ...rating }) => withRating(workspace, set, { ...rating, rater: userInfo().username }), big)

    // While the thread serializes the document, the window asks main something: it must be answered before the save is.
    const order: string[] = []
    const probe = (kind: string) => {
      if (kind !== 'save') return
      void call(app, 'app:info', {}).then(() => order.push('app:info answered'))
    }
    fileThreadStages.on('stage', probe)
    try {
      const saved = await call<SaveReply>(app, 'workspace:save', {})
      order.push('saved')
      expect(saved.workspace?.dirty).toBe(false)
    } finally {
      fileThreadStages.off('stage', probe)
    }
    expect(order).toEqual(['app:info answered', 'saved'])

    const text = readFileSync(path, 'utf8')
    expect(text.includes('\n')).toBe(false)
    expect(text === serializeWorkspace(expected, 'compact')).toBe(true)
    expect(statSync(path).mode & 0o777).toBe(0o640)
    const again = await core()
    opens.push(path)
    const view = await call<WorkspaceView>(again, 'workspace:open', {})
    expect(view.dirty).toBe(false)
    expect(view.sets.find((set) => set.name === BIG_SET)?.judgments).toBe(expected.sets!.find((set) => set.name === BIG_SET)!.judgments.length)
  })

  it('leaves the previous file whole when the process is killed with SIGKILL while the thread writes', async () => {
    const path = join(dir, 'killed.qxw.json')
    const before = serializeWorkspace(bigWorkspace())
    writeFileSync(path, before)
    const thread = pathToFileURL(resolve('src/main/workspaces/file-thread.ts')).href
    // The child opens the file on the thread, edits a note, saves, and says so when the thread's temporary file appears.
    const code = `import(${JSON.stringify(thread)}).then(async (loaded) => {
      const { WorkspaceFileThread } = loaded.WorkspaceFileThread ? loaded : loaded.default
      const fs = require('node:fs')
      const files = new WorkspaceFileThread()
      const read = await files.open(${JSON.stringify(path)})
      if (!read.ok) throw new Error(read.message)
      const workspace = { ...read.workspace, queries: read.workspace.queries.map((query, i) => (i === 0 ? { ...query, notes: 'edited' } : query)) }
      let said = false
      fs.watch(${JSON.stringify(dir)}, (event, name) => {
        if (!said && String(name).startsWith('killed.qxw.json.') && String(name).endsWith('.tmp')) {
          said = true
          process.stdout.write('writing\\n')
        }
      })
      await files.save(${JSON.stringify(path)}, workspace, read.layout)
      process.stdout.write('saved\\n')
    })`
    const confirmed = await confirmedBeforeKill(code, 1)
    expect(confirmed[0]).toBe('writing')
    const after = readFileSync(path, 'utf8')
    // The kill lands before the rename (the old file) or, rarely, after it (the new one): never a part of either.
    expect(after === before || after === serializeWorkspace(edited(before))).toBe(true)
    expect(readdirSync(dir).filter((name) => name.startsWith('killed.qxw.json') && !name.endsWith('.tmp'))).toEqual(['killed.qxw.json'])
  })
})

function edited(text: string): Workspace {
  const read = parseWorkspace(text, 'killed.qxw.json')
  if (!read.ok) throw new Error(read.message)
  return { ...read.workspace, queries: read.workspace.queries.map((query, i) => (i === 0 ? { ...query, notes: 'edited' } : query)) }
}
