import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { VIEW_PREFS_FILE } from '../../src/main/storage/view-prefs-store'
import { MAX_FOLDS, type ViewPrefs } from '../../src/shared/view-prefs'
import { useTempDirs } from '../fixtures/temp-dirs'
import { call, failure, openCore } from './support'

/**
 * The window's view preferences live in the data folder, so that the browser
 * host's page, whose origin (and localStorage) changes with each start, gets
 * its open panels, view and theme back.
 */
describe('view preferences', () => {
  const tempDir = useTempDirs('qe-view-prefs')
  let dataDir: string
  let core: AppCore | null

  beforeEach(async () => {
    dataDir = tempDir()
    core = await openCore(dataDir)
  })
  afterEach(async () => {
    await core?.close()
  })

  const restart = async () => {
    await core?.close()
    core = null
    core = await openCore(dataDir)
    return core
  }

  it('starts empty, keeps each change, and merges panels window kind by window kind', async () => {
    expect(await call(core!, 'view-prefs:get', {})).toEqual({})
    await call(core!, 'view-prefs:set', { folds: { insights: { wide: false } } })
    await call(core!, 'view-prefs:set', { view: 'tests' })
    const after = await call<ViewPrefs>(core!, 'view-prefs:set', { theme: 'dark', folds: { insights: { narrow: true }, tests: { short: false } } })
    const expected = { view: 'tests', theme: 'dark', folds: { insights: { wide: false, narrow: true }, tests: { short: false } } }
    expect(after).toEqual(expected)
    expect(await call(core!, 'view-prefs:get', {})).toEqual(expected)
  })

  it('goes back to the defaults on reset, for this start and the next', async () => {
    await call(core!, 'view-prefs:set', { view: 'tests', folds: { insights: { wide: false } } })
    expect(await call(core!, 'view-prefs:reset', {})).toEqual({})
    expect(await call(core!, 'view-prefs:get', {})).toEqual({})
    expect(await call(await restart(), 'view-prefs:get', {})).toEqual({})
  })

  it('gives them back after a restart on the same data folder', async () => {
    await call(core!, 'view-prefs:set', { view: 'history', theme: 'light', folds: { 'saved-queries': { tall: false } } })
    const again = await restart()
    expect(await call(again, 'view-prefs:get', {})).toEqual({ view: 'history', theme: 'light', folds: { 'saved-queries': { tall: false } } })
  })

  it('refuses hostile changes with a sentence naming the field and the rule, and keeps what it had', async () => {
    await call(core!, 'view-prefs:set', { view: 'results' })
    const cases: [unknown, RegExp][] = [
      [{ theme: 'pink' }, /theme: must be one of light, dark, system/],
      [{ view: '../../etc/passwd' }, /view: must be 1 to 40 characters: lower-case letters, digits and dashes/],
      [{ view: 'x'.repeat(41) }, /view: must be 1 to 40 characters/],
      [{ folds: { 'Not A Name': { wide: true } } }, /folds\.Not A Name: names must be 1 to 40 characters/],
      [{ folds: { insights: { wide: 'yes' } } }, /folds\.insights\.wide: must be true \(open\) or false \(folded\)/],
      [{ folds: { insights: { a: true, b: true, c: true, d: true, e: true } } }, /folds\.insights: at most 4 kinds of window/],
      [{ folds: Object.fromEntries(Array.from({ length: MAX_FOLDS + 1 }, (_, i) => [`p${i}`, { wide: true }])) }, /folds: at most 32 panels are remembered/],
      [{ secret: 'x' }, /Unrecognized key: "secret"/],
    ]
    for (const [request, message] of cases) {
      const error = await failure(core!, 'view-prefs:set', request)
      expect(error.code).toBe('validation')
      expect(error.message).toMatch(message)
    }
    // Many small valid changes, each within the bounds, cannot add up past them either.
    for (let i = 0; i < MAX_FOLDS; i++) await call(core!, 'view-prefs:set', { folds: { [`p${i}`]: { wide: true } } })
    const error = await failure(core!, 'view-prefs:set', { folds: { one: { wide: true } } })
    expect(error.message).toBe('Invalid view-prefs:set request: folds: at most 32 panels are remembered.')
    const kept = await call<ViewPrefs>(core!, 'view-prefs:get', {})
    expect(kept.view).toBe('results')
    expect(Object.keys(kept.folds ?? {})).toHaveLength(MAX_FOLDS)
    expect(kept.folds).not.toHaveProperty('one')
  })

  it('sets a corrupt file aside and starts from the defaults', async () => {
    await core!.close()
    core = null
    const path = join(dataDir, VIEW_PREFS_FILE)
    writeFileSync(path, '{"version":1,"prefs":{"theme":"neon"')
    core = await openCore(dataDir)
    expect(await call(core, 'view-prefs:get', {})).toEqual({})
    expect(readFileSync(`${path}.bad`, 'utf8')).toBe('{"version":1,"prefs":{"theme":"neon"')
    // The next change writes a fresh file beside the one set aside.
    await call(core, 'view-prefs:set', { theme: 'dark' })
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, prefs: { theme: 'dark' } })
    expect(existsSync(`${path}.bad`)).toBe(true)
  })

  it('sets aside a file holding what no renderer may send (an unknown key, an oversized name)', async () => {
    await core!.close()
    core = null
    const path = join(dataDir, VIEW_PREFS_FILE)
    writeFileSync(path, JSON.stringify({ version: 1, prefs: { view: 'results', folds: { ['x'.repeat(5_000)]: { wide: true } } } }))
    core = await openCore(dataDir)
    expect(await call(core, 'view-prefs:get', {})).toEqual({})
    expect(existsSync(`${path}.bad`)).toBe(true)
  })
})
