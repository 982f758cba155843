import { readonly, ref } from 'vue'
import { mergeViewPrefs, ViewPrefsSchema, type ViewPrefs } from '../../shared/view-prefs'
import { call } from '../api/explorer-client'

/**
 * The window's view preferences (theme, workbench view, open panels), as the
 * main process keeps them in the data folder. The browser host's page gets a
 * new origin with each start, so its localStorage is only a first guess for
 * the moment before main answers: main's copy wins. localStorage keeps the
 * theme under the key public/theme-boot.js reads before the first paint.
 */

const LOCAL_KEY = 'query-explorer.view-prefs'
/** Read by public/theme-boot.js. */
const THEME_KEY = 'query-explorer.theme'
/** How long the window waits for main before it shows itself on its first guess. */
const LOAD_WAIT_MS = 2_000

function localGuess(): ViewPrefs {
  try {
    const parsed = ViewPrefsSchema.safeParse(JSON.parse(localStorage.getItem(LOCAL_KEY) ?? '{}'))
    const guess = parsed.success ? parsed.data : {}
    const theme = ViewPrefsSchema.shape.theme.safeParse(localStorage.getItem(THEME_KEY) ?? undefined)
    return theme.success && theme.data ? { ...guess, theme: theme.data } : guess
  } catch {
    return {}
  }
}

function keepLocally(value: ViewPrefs): void {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(value))
    if (value.theme) localStorage.setItem(THEME_KEY, value.theme)
  } catch {
    // Storage switched off: main still keeps them.
  }
}

const prefs = ref<ViewPrefs>(localGuess())
let loading: Promise<void> | null = null

/** What the window was told from main, or guessed from this origin's storage until then. */
export const viewPrefs = readonly(prefs)

/**
 * Asks main once for the kept preferences; they replace the local guess key
 * by key. What only the guess holds (a window from before main kept them) is
 * sent up, so it is not lost. Resolves within LOAD_WAIT_MS whatever happens.
 */
export function loadViewPrefs(): Promise<void> {
  loading ??= new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, LOAD_WAIT_MS)
    void fetchFromMain().finally(() => {
      clearTimeout(timer)
      resolve()
    })
  })
  return loading
}

async function fetchFromMain(): Promise<void> {
  let kept: ViewPrefs
  try {
    kept = await call('view-prefs:get', {})
  } catch {
    return // No main to ask (or it refused): the guess stands for this run.
  }
  const guess = prefs.value
  const merged = mergeViewPrefs(guess, kept)
  if ('refusal' in merged) {
    prefs.value = kept
  } else {
    // Main wins wherever it has a value, fold by fold and window kind by window kind.
    prefs.value = merged.prefs
    const onlyHere = missingFrom(kept, merged.prefs)
    if (onlyHere) void send(onlyHere)
  }
  keepLocally(prefs.value)
}

/** What `all` holds that `kept` has not, or null. */
function missingFrom(kept: ViewPrefs, all: ViewPrefs): ViewPrefs | null {
  const patch: ViewPrefs = {}
  if (all.theme && !kept.theme) patch.theme = all.theme
  if (all.view && !kept.view) patch.view = all.view
  for (const [name, modes] of Object.entries(all.folds ?? {})) {
    for (const [mode, open] of Object.entries(modes)) {
      if (kept.folds?.[name]?.[mode] === undefined) patch.folds = { ...patch.folds, [name]: { ...patch.folds?.[name], [mode]: open } }
    }
  }
  return Object.keys(patch).length ? patch : null
}

async function send(patch: ViewPrefs): Promise<void> {
  try {
    await call('view-prefs:set', patch)
  } catch {
    // Not kept for the next start, but applied for this run (and in this origin's storage).
  }
}

/** Applies a change at once, keeps it in this origin's storage and sends it to main. */
export function setViewPrefs(patch: ViewPrefs): Promise<void> {
  const merged = mergeViewPrefs(prefs.value, patch)
  if ('refusal' in merged) return Promise.resolve()
  prefs.value = merged.prefs
  keepLocally(prefs.value)
  return send(patch)
}
