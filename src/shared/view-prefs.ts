import { z } from 'zod'
import { ADJUDICATION_RATER, RaterNameSchema } from './relevance/raters'

/**
 * The window's view preferences: the theme, the workbench view shown, and
 * which side panels and regions are open. Kept by the main process in the
 * data folder, because the browser host's page gets a new origin (a new port)
 * each start and the page's own storage is forgotten with it.
 *
 * Everything here comes from a renderer, so every part is bounded: known
 * keys, short names of one pattern, a count limit, booleans.
 */

export const THEME_CHOICES = ['light', 'dark', 'system'] as const
export type ThemeChoice = (typeof THEME_CHOICES)[number]

/** How many panels or regions may be remembered, and how many kinds of window for each. */
export const MAX_FOLDS = 32
export const MAX_FOLD_MODES = 4

const NAME_RULE = 'must be 1 to 40 characters: lower-case letters, digits and dashes, starting with a letter'
const Name = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, { error: NAME_RULE })
/** A record's bad key is reported as the key's rule, not zod's "Invalid key in record". */
const keyRule = { error: (issue: { code?: string }) => (issue.code === 'invalid_key' ? `names ${NAME_RULE}` : undefined) }

/** Open (true) or folded, per kind of window (`narrow`/`wide`, `short`/`tall`). */
const FoldSchema = z
  .record(Name, z.boolean({ error: 'must be true (open) or false (folded)' }), keyRule)
  .refine((modes) => Object.keys(modes).length <= MAX_FOLD_MODES, { error: `at most ${MAX_FOLD_MODES} kinds of window are remembered for one panel` })

const FoldsSchema = z
  .record(Name, FoldSchema, keyRule)
  .refine((folds) => Object.keys(folds).length <= MAX_FOLDS, { error: `at most ${MAX_FOLDS} panels are remembered` })

export const ViewPrefsSchema = z
  .object({
    theme: z.enum(THEME_CHOICES, { error: `must be one of ${THEME_CHOICES.join(', ')}` }).optional(),
    /** A workbench view's id (components/explorer/views.ts); one the window no longer has is ignored there. */
    view: Name.optional(),
    folds: FoldsSchema.optional(),
    /** The person's name as a rater (issue 35): asked once, then on every rating they make. */
    rater: RaterNameSchema.refine((name) => name.trim() === name && !/[\u0000-\u001f\u007f]/.test(name), { error: 'must not start or end with white space, nor hold a control character' })
      .refine((name) => name !== ADJUDICATION_RATER, { error: `"${ADJUDICATION_RATER}" is the name Settle gives settled grades; choose another` })
      .optional(),
  })
  .strict()

export type ViewPrefs = z.infer<typeof ViewPrefsSchema>

/** A change: the keys given replace those kept; folds merge panel by panel and window kind by kind. */
export const ViewPrefsPatchSchema = ViewPrefsSchema

/** The preferences after a change, or the sentence saying which count limit the result would break. */
export function mergeViewPrefs(kept: ViewPrefs, patch: ViewPrefs): { prefs: ViewPrefs } | { refusal: string } {
  const folds = { ...kept.folds }
  for (const [name, modes] of Object.entries(patch.folds ?? {})) folds[name] = { ...folds[name], ...modes }
  if (Object.keys(folds).length > MAX_FOLDS) return { refusal: `folds: at most ${MAX_FOLDS} panels are remembered.` }
  for (const [name, modes] of Object.entries(folds)) {
    if (Object.keys(modes).length > MAX_FOLD_MODES) return { refusal: `folds.${name}: at most ${MAX_FOLD_MODES} kinds of window are remembered for one panel.` }
  }
  const prefs: ViewPrefs = { ...kept, ...withoutUndefined(patch), ...(Object.keys(folds).length ? { folds } : {}) }
  return { prefs }
}

function withoutUndefined(prefs: ViewPrefs): ViewPrefs {
  return Object.fromEntries(Object.entries(prefs).filter(([key, value]) => value !== undefined && key !== 'folds')) as ViewPrefs
}
