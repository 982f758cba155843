import { computed, getCurrentInstance, onBeforeUnmount, ref, type ComputedRef, type Ref } from 'vue'
import { setViewPrefs, viewPrefs } from './view-prefs'

/**
 * Whether a side panel or region is open, remembered apart for cramped and
 * roomy windows (a media query tells which), because the reasons to fold it
 * differ: where the window is cramped it starts folded, elsewhere open, until
 * the user says otherwise for that kind of window.
 */
export interface RememberedFold {
  open: ComputedRef<boolean>
  /** The media query matches: the window is the cramped kind. */
  cramped: Ref<boolean>
  toggle(): void
}

type Preference = Partial<Record<string, boolean>>

/** Where this origin kept it before main did (a window of an earlier version): a guess until the user toggles. */
function legacyPreference(key: string): Preference {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? '{}')
    return value && typeof value === 'object' ? (value as Preference) : {}
  } catch {
    return {}
  }
}

export function useRememberedFold(options: {
  /** Matches the cramped windows, e.g. `(max-width: 1100px)`. */
  query: string
  /** `query-explorer.<panel>`: the panel's name among the view preferences is the last part. */
  storageKey: string
  /** What the two kinds of window are called in the stored preference: cramped first. */
  modes: readonly [cramped: string, roomy: string]
}): RememberedFold {
  const media = typeof matchMedia === 'function' ? matchMedia(options.query) : null
  const cramped = ref(media?.matches ?? false)
  const onMedia = (event: MediaQueryListEvent) => (cramped.value = event.matches)
  media?.addEventListener('change', onMedia)
  if (getCurrentInstance()) onBeforeUnmount(() => media?.removeEventListener('change', onMedia))

  const name = options.storageKey.slice(options.storageKey.lastIndexOf('.') + 1)
  const legacy = legacyPreference(options.storageKey)
  const mode = computed(() => options.modes[cramped.value ? 0 : 1])
  // Main's copy (viewPrefs) wins; it is reactive, so a panel follows it should it arrive after the first paint.
  const open = computed(() => viewPrefs.value.folds?.[name]?.[mode.value] ?? legacy[mode.value] ?? !cramped.value)

  function toggle(): void {
    void setViewPrefs({ folds: { [name]: { [mode.value]: !open.value } } })
  }
  return { open, cramped, toggle }
}
