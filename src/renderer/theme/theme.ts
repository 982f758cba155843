import { readonly, ref } from 'vue'

/** What the user picked: a fixed theme, or whatever the system prefers. */
export type ThemeChoice = 'light' | 'dark' | 'system'
export type AppliedTheme = 'light' | 'dark'

export const THEME_CHOICES: readonly ThemeChoice[] = ['light', 'dark', 'system']

/** Shared with public/theme-boot.js, which applies the theme before the first paint. */
const STORAGE_KEY = 'query-explorer.theme'

const isChoice = (value: unknown): value is ThemeChoice => THEME_CHOICES.includes(value as ThemeChoice)

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY)
    return isChoice(value) ? value : 'system'
  } catch {
    return 'system'
  }
}

const systemDark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null

const choice = ref<ThemeChoice>(storedChoice())
const applied = ref<AppliedTheme>('light')

/** The stylesheet's tokens switch on `data-theme`; the chart reads `applied` to redraw in the new colours. */
function apply(): void {
  applied.value = choice.value === 'system' ? (systemDark?.matches ? 'dark' : 'light') : choice.value
  document.documentElement.dataset.theme = applied.value
}

systemDark?.addEventListener('change', apply)
apply()

/** The theme the user picked and the one showing now, for the switch and for whatever draws its own colours. */
export function useTheme() {
  function choose(next: ThemeChoice): void {
    choice.value = next
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // Not remembered, but applied for this run.
    }
    apply()
  }
  return { choice: readonly(choice), applied: readonly(applied), choose }
}
