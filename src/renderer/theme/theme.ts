import { computed, readonly, ref, watch } from 'vue'
import { THEME_CHOICES, type ThemeChoice } from '../../shared/view-prefs'
import { setViewPrefs, viewPrefs } from '../composables/view-prefs'

/** What the user picked: a fixed theme, or whatever the system prefers. */
export type { ThemeChoice }
export type AppliedTheme = 'light' | 'dark'

export { THEME_CHOICES }

const systemDark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null

/**
 * Among the view preferences main keeps; public/theme-boot.js applied this
 * origin's copy before the first paint, and main's copy, when it differs
 * (the browser host's page on a new port), replaces it as it arrives.
 */
const choice = computed<ThemeChoice>(() => viewPrefs.value.theme ?? 'system')
const applied = ref<AppliedTheme>('light')

/** The stylesheet's tokens switch on `data-theme`; the chart reads `applied` to redraw in the new colours. */
function apply(): void {
  applied.value = choice.value === 'system' ? (systemDark?.matches ? 'dark' : 'light') : choice.value
  document.documentElement.dataset.theme = applied.value
}

systemDark?.addEventListener('change', apply)
watch(choice, apply)
apply()

/** The theme the user picked and the one showing now, for the switch and for whatever draws its own colours. */
export function useTheme() {
  function choose(next: ThemeChoice): void {
    void setViewPrefs({ theme: next })
  }
  return { choice, applied: readonly(applied), choose }
}
