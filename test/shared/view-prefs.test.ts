import { describe, expect, it } from 'vitest'
import { MAX_FOLD_MODES, MAX_FOLDS, mergeViewPrefs, ViewPrefsPatchSchema, ViewPrefsSchema, type ViewPrefs } from '../../src/shared/view-prefs'
import { issuesOf } from '../fixtures/schema-issues'

/**
 * The window's view preferences (src/shared/view-prefs.ts): what a renderer
 * may send, each refusal naming the field and the rule, and how a change
 * merges into what is kept. (Kept in the data folder over IPC:
 * test/main/view-prefs-store.test.ts.)
 */

const problems = (value: unknown) => issuesOf(ViewPrefsSchema, value)

const panels = (count: number, modes: Record<string, boolean> = { wide: true }) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, modes]))

describe('ViewPrefsSchema', () => {
  it('takes a theme, a view and panels open or folded per kind of window, each part optional', () => {
    const prefs = { theme: 'system', view: 'saved-queries', folds: { insights: { narrow: false, wide: true } } }
    expect(ViewPrefsSchema.parse(prefs)).toEqual(prefs)
    expect(ViewPrefsSchema.parse({})).toEqual({})
    expect(ViewPrefsPatchSchema).toBe(ViewPrefsSchema)
  })

  it('refuses what no window sends, naming the field and the rule', () => {
    const NAME = 'must be 1 to 40 characters: lower-case letters, digits and dashes, starting with a letter'
    expect(problems({ theme: 'pink' })).toEqual(['theme: must be one of light, dark, system'])
    expect(problems({ view: '../../etc/passwd' })).toEqual([`view: ${NAME}`])
    expect(problems({ view: `a${'x'.repeat(40)}` })).toEqual([`view: ${NAME}`])
    expect(problems({ view: '1st' })).toEqual([`view: ${NAME}`])
    expect(problems({ folds: { 'Not A Name': { wide: true } } })).toEqual([`folds.Not A Name: names ${NAME}`])
    expect(problems({ folds: { insights: { Wide: true } } })).toEqual([`folds.insights.Wide: names ${NAME}`])
    expect(problems({ folds: { insights: { wide: 'yes' } } })).toEqual(['folds.insights.wide: must be true (open) or false (folded)'])
    expect(problems({ secret: 'x' })).toEqual([': Unrecognized key: "secret"'])
  })

  it(`remembers at most ${MAX_FOLDS} panels and ${MAX_FOLD_MODES} kinds of window for each`, () => {
    expect(problems({ view: `a${'x'.repeat(39)}`, folds: panels(MAX_FOLDS, { a: true, b: false, c: true, d: false }) })).toEqual([])
    expect(problems({ folds: panels(MAX_FOLDS + 1) })).toEqual(['folds: at most 32 panels are remembered'])
    expect(problems({ folds: { insights: { a: true, b: true, c: true, d: true, e: true } } })).toEqual(['folds.insights: at most 4 kinds of window are remembered for one panel'])
  })
})

describe('mergeViewPrefs', () => {
  const kept: ViewPrefs = { theme: 'dark', view: 'history', folds: { insights: { wide: false }, tests: { tall: true } } }

  it('replaces the keys a change gives, keeps the others, and merges panels kind of window by kind of window', () => {
    expect(mergeViewPrefs(kept, { view: 'tests', folds: { insights: { narrow: true, wide: true }, history: { short: false } } })).toEqual({
      prefs: { theme: 'dark', view: 'tests', folds: { insights: { wide: true, narrow: true }, tests: { tall: true }, history: { short: false } } },
    })
    expect(mergeViewPrefs({}, { theme: 'light' })).toEqual({ prefs: { theme: 'light' } })
  })

  it('keeps everything for an empty change, and what a change leaves undefined', () => {
    expect(mergeViewPrefs(kept, {})).toEqual({ prefs: kept })
    expect(mergeViewPrefs(kept, { theme: undefined, view: undefined })).toEqual({ prefs: kept })
    expect(mergeViewPrefs({}, {})).toEqual({ prefs: {} })
  })

  it('refuses a change that would take the kept preferences past a count limit, though each part is within it', () => {
    const full: ViewPrefs = { folds: panels(MAX_FOLDS) }
    expect(mergeViewPrefs(full, { folds: { one: { wide: true } } })).toEqual({ refusal: 'folds: at most 32 panels are remembered.' })
    // A panel already kept may still change.
    expect(mergeViewPrefs(full, { folds: { p0: { wide: false } } })).toMatchObject({ prefs: { folds: { p0: { wide: false } } } })
    const three: ViewPrefs = { folds: { insights: { a: true, b: true, c: true } } }
    expect(mergeViewPrefs(three, { folds: { insights: { d: false } } })).toMatchObject({ prefs: { folds: { insights: { a: true, b: true, c: true, d: false } } } })
    expect(mergeViewPrefs(three, { folds: { insights: { d: false, e: true } } })).toEqual({ refusal: 'folds.insights: at most 4 kinds of window are remembered for one panel.' })
  })
})
