import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createAppCore } from '../../src/main/app/app-core'
import { startBrowserHost } from '../../src/main/host/browser-host'
import { UploadTickets } from '../../src/main/host/upload-tickets'
import { MAX_UPLOAD_BYTES, UPLOAD_PART_BYTES } from '../../src/shared/ipc/uploads'
import { fakeBridge } from './fake-bridge'

/**
 * A file the browser-host page sends (src/renderer/api/uploads.ts), through
 * the window's own client to the real browser host and app core on
 * 127.0.0.1: a ticket, the bytes in parts, then the channel that reads it
 * names the upload. What the host refuses comes back in its words.
 */

const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'

const dir = mkdtempSync(join(tmpdir(), 'qe-renderer-uploads-'))
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
const core = await createAppCore({
  dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-renderer-uploads-${process.pid}`,
  uploads: new UploadTickets(join(dir, 'data', 'uploads')),
})
const host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: dir, port: 0, log: { info: () => undefined, error: () => undefined }, uploads: core.uploads })
afterAll(async () => {
  await host.close()
  await core.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * The page as the browser host opens it (Node has no page): its address's
 * one-time code, its tab storage, and its fetch, which resolves the client's
 * paths against the page's origin as a browser does.
 */
const code = /#code=([\w-]+)$/.exec(host.pageUrl())![1]!
const tab = new Map<string, string>()
const page: { explorer?: unknown; location: unknown } = { location: { hash: `#code=${code}`, pathname: '/', search: '' } }
Object.assign(globalThis, {
  window: page,
  history: { replaceState: () => undefined },
  sessionStorage: { getItem: (key: string) => tab.get(key) ?? null, setItem: (key: string, value: string) => void tab.set(key, value) },
})
const pageFetch = globalThis.fetch
globalThis.fetch = (path, init) => pageFetch(new URL(String(path), host.origin), init)
const { call, ExplorerClientError } = await import('../../src/renderer/api/explorer-client')
const { uploadFile } = await import('../../src/renderer/api/uploads')

describe('uploading a file from the browser-host page', () => {
  it('sends a workspace and a judgments file over a part long, and the channels that read them name the uploads', async () => {
    const opened = await call('workspace:import', { upload: await uploadFile(new File([readFileSync(WORLD)], 'world.qxw.json'), 'workspace') })
    expect(opened.sets.map((set) => set.name)).toContain(SET)

    // 12,000 judgments of a new query, with long item ids: about 1.5 MiB, two parts.
    const lines = Array.from({ length: 12_000 }, (_, i) => `bulk 0 https://example.org/places/${String(i).padStart(6, '0')}/${'p'.repeat(90)} ${i % 4}\n`)
    const file = new File([`q01 0 2988507 3\n${lines.join('')}`], 'bulk.qrels')
    expect(file.size).toBeGreaterThan(UPLOAD_PART_BYTES)
    const imported = await call('sets:import', { set: SET, upload: await uploadFile(file, 'judgments') })
    expect(imported).toMatchObject({ fileName: 'bulk.qrels', queries: 1, judgments: 12_001, replaced: 0 })
    // The session key the page traded its code for is kept in its tab.
    expect([...tab.values()]).toHaveLength(1)
  })

  it("says the host's refusal of a file over its kind's bound, in the host's words", async () => {
    const huge = new File([new Uint8Array(MAX_UPLOAD_BYTES + 1)], 'huge.qrels')
    const refused = await uploadFile(huge, 'judgments').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ExplorerClientError)
    expect((refused as Error).message).toBe(
      '"huge.qrels" holds 20,971,521 bytes; a file sent to the app may hold at most 20.0 MiB (20,971,520 bytes). Split it into smaller files.',
    )
  })

  it('refuses in an Electron window, which reads files through its open dialog', async () => {
    page.explorer = fakeBridge().bridge
    try {
      await expect(uploadFile(new File(['x'], 'a.qrels'), 'judgments')).rejects.toMatchObject({ error: { code: 'validation', message: 'This window reads files through its open dialog, not by upload.' } })
    } finally {
      delete page.explorer
    }
  })
})
