import { readdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RECENT_COPIES_DIR, RECENT_FILE } from '../../src/main/workspaces/recent-workspaces'
import type { RecentWorkspace, WorkspaceView } from '../../src/shared/ipc/contract'
import { call, failure } from './support'
import { scriptedDialogs, textOf, workspaceSessions, type SaveReply } from './fixtures/workspace-sessions'

/** The recent workspaces (recent-workspaces.ts): files in Electron, kept copies in the browser host. */

describe('recent workspaces', () => {
  const { tempDir, browserCore, electronCore, close, current, importText, saveQuery } = workspaceSessions()

  describe('Electron: files', () => {
    it('lists recent files with their folder, reopens one by id, and drops one whose file is gone', async () => {
      const { dialogs, opens, saves } = scriptedDialogs()
      const dataDir = tempDir('data')
      const core = await electronCore(dialogs, dataDir)
      const folder = tempDir('files')
      for (const name of ['a', 'b', 'c']) {
        writeFileSync(join(folder, `${name}.qxw.json`), textOf([{ name: name.toUpperCase() }]))
        opens.push(join(folder, `${name}.qxw.json`))
        await call(core, 'workspace:open', {})
      }
      await saveQuery(core, { name: 'Extra' })
      saves.push(join(folder, 'd.qxw.json'))
      await call(core, 'workspace:save', { saveAs: true })
      const recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => [entry.name, entry.fileName, entry.folder, entry.kind])).toEqual([
        ['d', 'd.qxw.json', folder, 'file'],
        ['c', 'c.qxw.json', folder, 'file'],
        ['b', 'b.qxw.json', folder, 'file'],
        ['a', 'a.qxw.json', folder, 'file'],
      ])
      expect(JSON.stringify(recent)).not.toContain(join(folder, 'a.qxw.json'))

      const reopened = await call<WorkspaceView>(core, 'workspace:open', { recentId: recent[2]!.id })
      expect(reopened).toMatchObject({ name: 'b', folder, saveTarget: 'file', dirty: false, queries: [{ name: 'B' }] })
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).toEqual(['b', 'd', 'c', 'a'])

      unlinkSync(join(folder, 'a.qxw.json'))
      const gone = await failure(core, 'workspace:open', { recentId: recent[3]!.id })
      expect(gone.code).toBe('not_found')
      expect(gone.message).toContain('"a.qxw.json" is no longer in')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).toEqual(['b', 'd', 'c'])
      expect((await current(core)).workspace.name).toBe('b')
      expect((await failure(core, 'workspace:open', { recentId: 'no-such-entry' })).code).toBe('not_found')
    })
  })

  describe('browser host: copies', () => {
    it('keeps the last 10 imported or downloaded files as copies, newest first, once each, deleting those that fall off', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const copies = () => readdirSync(join(dataDir, RECENT_COPIES_DIR)).sort()
      for (let n = 0; n < 12; n++) await importText(core, `w${n}.qxw.json`, textOf([{ name: `Q${n}` }]))
      let recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w5', 'w4', 'w3', 'w2'])
      expect(recent.every((entry) => entry.kind === 'copy' && entry.folder === null)).toBe(true)
      expect(copies()).toEqual(recent.map((entry) => `${entry.id}.qxw.json`).sort())

      // The same file again: listed once, first, with its newer text.
      await importText(core, 'w5.qxw.json', textOf([{ name: 'Q5 changed' }]))
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3', 'w2'])
      expect(copies()).toHaveLength(10)

      // A download is kept too, under its file name; w2 falls off and its copy goes.
      await saveQuery(core, { name: 'Oslo' })
      await call(core, 'workspace:save', {})
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3', 'w2'])
      await call(core, 'workspace:new', {})
      await saveQuery(core, { name: 'Lima' })
      const download = await call<SaveReply>(core, 'workspace:save', {})
      expect(download.download?.fileName).toBe('Untitled workspace.qxw.json')
      recent = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      expect(recent.map((entry) => entry.name)).toEqual(['Untitled workspace', 'w5', 'w11', 'w10', 'w9', 'w8', 'w7', 'w6', 'w4', 'w3'])
      expect(copies()).toEqual(recent.map((entry) => `${entry.id}.qxw.json`).sort())

      // Reopening a copy names the file it was, and holds its last text.
      const w5 = recent[1]!
      const reopened = await call<WorkspaceView>(core, 'workspace:open', { recentId: w5.id })
      expect(reopened).toMatchObject({ name: 'w5', fileName: 'w5.qxw.json', dirty: false, queries: [{ name: 'Q5 changed' }, { name: 'Oslo' }] })
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {}))[0]!.id).toBe(w5.id)

      // A copy that went missing: said by name, and the entry goes.
      const w3 = recent.find((entry) => entry.name === 'w3')!
      unlinkSync(join(dataDir, RECENT_COPIES_DIR, `${w3.id}.qxw.json`))
      const gone = await failure(core, 'workspace:open', { recentId: w3.id })
      expect(gone).toMatchObject({ code: 'not_found' })
      expect(gone.message).toContain('"w3.qxw.json"')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {})).map((entry) => entry.name)).not.toContain('w3')

      // The list survives a restart; a corrupt one counts as empty, and its stray copies go.
      await close(core)
      const again = await browserCore(dataDir)
      expect((await call<RecentWorkspace[]>(again, 'workspace:recent', {})).map((entry) => entry.name)).toHaveLength(9)
      await close(again)
      writeFileSync(join(dataDir, RECENT_FILE), '{"version": 1, "files": [], "copies": [{"id": "../../etc/passwd"}]}')
      const third = await browserCore(dataDir)
      expect(await call(third, 'workspace:recent', {})).toEqual([])
      expect(copies()).toEqual([])
    })
  })
})
