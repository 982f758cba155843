import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { MAX_JUDGMENT_FILE_BYTES } from '../../src/shared/relevance/judgment-files'

/**
 * Import judgments in Electron: main asks its open dialog and reads the file
 * the user picked (a real file on disk, through the same bound as an
 * upload), so no file's text travels in a message. The dialog here is the
 * one part that is not real (no display): it answers with the path a user
 * would pick, or nothing when they cancel.
 */

const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'

describe('Import judgments in Electron reads the file the open dialog picked', () => {
  let dir: string
  let core: AppCore
  let picked: string | null = null
  const asked: { title: string; filters: { name: string; extensions: string[] }[] }[] = []
  const dialogs: FileDialogs = {
    chooseOpen: async (options) => {
      asked.push(options)
      return picked
    },
    chooseSave: async () => null,
  }
  const dispatch = (channel: string, request: unknown) =>
    core.dispatch(channel, request) as Promise<{ ok: true; data: Record<string, unknown> | null } | { ok: false; error: { code: string; message: string } }>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-judgments-dialog-'))
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'electron', version: 'test', demo: 'none', keychainService: `qe-judgments-dialog-${process.pid}`, dialogs })
    picked = WORLD
    expect((await dispatch('workspace:open', {})).ok).toBe(true)
  })
  afterAll(async () => {
    await core?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('imports a Quepid CSV over 1 MiB from the path the dialog gave', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `harbour towns,https://example.org/places/${String(i).padStart(6, '0')}/${'h'.repeat(90)},${i % 4}\n`)
    const path = join(dir, 'ratings.csv')
    writeFileSync(path, `query,docid,rating\n${rows.join('')}`)
    picked = path
    const reply = await dispatch('sets:import', { set: SET })
    expect(reply).toMatchObject({ ok: true, data: { fileName: 'ratings.csv', queries: 1, judgments: 10_000, replaced: 0 } })
    expect(asked.at(-1)).toMatchObject({ title: 'Import judgments', filters: [{ extensions: ['csv', 'qrels', 'txt', 'json'] }, { extensions: ['*'] }] })
    const set = (await dispatch('sets:get', { name: SET })) as { ok: true; data: { queries: { text: string }[]; judgments: unknown[] } }
    expect(set.data.queries.at(-1)).toMatchObject({ text: 'harbour towns' })
    expect(set.data.judgments).toHaveLength(2349 + 10_000)
  })

  it('changes nothing when the dialog is cancelled', async () => {
    picked = null
    expect(await dispatch('sets:import', { set: SET })).toEqual({ ok: true, data: null })
  })

  it('refuses a file over 20 MiB, and one that is not UTF-8, in words naming the file', async () => {
    const big = join(dir, 'big.qrels')
    writeFileSync(big, '')
    truncateSync(big, MAX_JUDGMENT_FILE_BYTES + 1)
    picked = big
    expect(await dispatch('sets:import', { set: SET })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: '"big.qrels" holds more than 20.0 MiB, more than a judgments file may; split it into smaller files and import each.' },
    })
    const latin1 = join(dir, 'latin1.csv')
    writeFileSync(latin1, Buffer.from('query,docid,rating\nm\xe1laga,1,2\n', 'latin1'))
    picked = latin1
    expect(await dispatch('sets:import', { set: SET })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: '"latin1.csv" is not UTF-8 text, so it is not a judgments file.' },
    })
  })

  it('names no upload here, and asks no dialog for a set that is not there', async () => {
    expect(await dispatch('sets:import', { set: SET, upload: 'x'.repeat(43) })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: 'This window reads the file its open dialog picks: a request here names no upload.' },
    })
    const before = asked.length
    expect(await dispatch('sets:import', { set: 'No such set' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(asked).toHaveLength(before)
  })
})
