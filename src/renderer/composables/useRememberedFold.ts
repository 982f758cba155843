import { computed, getCurrentInstance, onBeforeUnmount, ref, type ComputedRef, type Ref } from 'vue'

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

function readPreference(key: string): Preference {
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
  storageKey: string
  /** What the two kinds of window are called in the stored preference: cramped first. */
  modes: readonly [cramped: string, roomy: string]
}): RememberedFold {
  const media = typeof matchMedia === 'function' ? matchMedia(options.query) : null
  const cramped = ref(media?.matches ?? false)
  const onMedia = (event: MediaQueryListEvent) => (cramped.value = event.matches)
  media?.addEventListener('change', onMedia)
  if (getCurrentInstance()) onBeforeUnmount(() => media?.removeEventListener('change', onMedia))

  const preference = ref<Preference>(readPreference(options.storageKey))
  const mode = computed(() => options.modes[cramped.value ? 0 : 1])
  const open = computed(() => preference.value[mode.value] ?? !cramped.value)

  function toggle(): void {
    preference.value = { ...preference.value, [mode.value]: !open.value }
    try {
      localStorage.setItem(options.storageKey, JSON.stringify(preference.value))
    } catch {
      // Not remembered, but folded or unfolded for this run.
    }
  }
  return { open, cramped, toggle }
}
