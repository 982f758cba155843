import { computed, onBeforeUnmount, ref } from 'vue'

/** At this width and below, the results need the room: the panel starts folded. */
export const NARROW_QUERY = '(max-width: 1100px)'
const STORAGE_KEY = 'query-explorer.insights'

type Preference = { narrow?: boolean; wide?: boolean }

function readPreference(): Preference {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}')
    return value && typeof value === 'object' ? (value as Preference) : {}
  } catch {
    return {}
  }
}

/**
 * Whether the statistics and facets panel is open. It is remembered apart for
 * narrow and wide windows, as the reasons to fold it differ: on a laptop the
 * grid needs the width, on a large screen there is room for both.
 */
export function useInsightsPanel() {
  const media = typeof matchMedia === 'function' ? matchMedia(NARROW_QUERY) : null
  const narrow = ref(media?.matches ?? false)
  const onMedia = (event: MediaQueryListEvent) => (narrow.value = event.matches)
  media?.addEventListener('change', onMedia)
  onBeforeUnmount(() => media?.removeEventListener('change', onMedia))

  const preference = ref<Preference>(readPreference())
  const mode = computed(() => (narrow.value ? 'narrow' : 'wide'))
  const open = computed(() => preference.value[mode.value] ?? !narrow.value)

  function toggle(): void {
    preference.value = { ...preference.value, [mode.value]: !open.value }
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(preference.value))
    } catch {
      // Not remembered, but folded or unfolded for this run.
    }
  }

  return { open, toggle }
}
