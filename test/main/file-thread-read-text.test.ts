import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkspaceFileThread } from '../../src/main/workspaces/file-thread'
import { digest } from '../../src/main/workspaces/session-file'
import { documentOfParsed } from '../../src/main/workspaces/workspace-files'
import { layoutOf, parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { WORLD_FILE } from '../fixtures/big-workspace'

/**
 * A file read on the file thread gets the layout, size and digest of the
 * text a save of it writes (documentOfParsed). For a file the app wrote that
 * is the file's own text, which the thread finds without making it again
 * (file-worker.ts, isTextOf); for any other it makes it. Both ways must give
 * the same facts, over the real worker and real files.
 */

const world = JSON.parse(readFileSync(WORLD_FILE, 'utf8')) as Workspace

/** The file's texts: the app's own, and the same content written otherwise. */
function variants(): Record<string, string> {
  const readable = serializeWorkspace(world)
  const compact = serializeWorkspace(world, 'compact')
  const reordered = JSON.parse(compact) as Record<string, unknown>
  const strayKey = JSON.parse(compact) as { connections: Record<string, unknown>[] }
  strayKey.connections[0]!.color = 'blue'
  return {
    'the app readable': readable,
    'the app compact': compact,
    'four-space indent': `${JSON.stringify(JSON.parse(readable), null, 4)}\n`,
    'keys in another order': JSON.stringify(Object.fromEntries(Object.entries(reordered).reverse())),
    'a byte-order mark first': `\uFEFF${readable}`,
    'no final newline': readable.trimEnd(),
    'a key the schema strips': JSON.stringify(strayKey),
    'Windows line ends': readable.replace(/\n/g, '\r\n'),
  }
}

function expected(text: string) {
  const read = parseWorkspace(text, 'x.qxw.json')
  if (!read.ok) throw new Error(read.message)
  const made = documentOfParsed(read.workspace, Buffer.byteLength(text, 'utf8'))
  return { layout: layoutOf(made), bytes: Buffer.byteLength(made, 'utf8'), digest: digest(made) }
}

describe('the facts of a workspace file read on the file thread', () => {
  let dir: string
  const thread = new WorkspaceFileThread()
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-read-text-'))
  })
  afterAll(async () => {
    await thread.close()
    rmSync(dir, { recursive: true, force: true })
  })

  for (const [name, text] of Object.entries(variants())) {
    it(`are those of the text a save writes: ${name}`, async () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.qxw.json`)
      writeFileSync(path, text)
      const opened = await thread.open(path)
      expect(opened.ok).toBe(true)
      if (!opened.ok) return
      const { workspace: _opened, ...facts } = opened
      expect(facts).toEqual({ ok: true, ...expected(text) })
      const imported = await thread.import('x.qxw.json', text)
      if (!imported.ok) throw new Error(imported.message)
      const { workspace: _imported, ...importedFacts } = imported
      expect(importedFacts).toEqual({ ok: true, ...expected(text) })
    })
  }

  it("a file the app wrote keeps its own text: its size and digest are the file's", async () => {
    for (const layout of ['readable', 'compact'] as const) {
      const text = serializeWorkspace(world, layout)
      const path = join(dir, `own-${layout}.qxw.json`)
      writeFileSync(path, text)
      const opened = await thread.open(path)
      if (!opened.ok) throw new Error(opened.message)
      expect([opened.layout, opened.bytes, opened.digest]).toEqual([layout, Buffer.byteLength(text, 'utf8'), digest(text)])
    }
  })
})
