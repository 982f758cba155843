/**
 * How the Experiments view writes its figures, in one place so the means
 * table, the query table, the charts' hidden tables and the tests read alike.
 */

/** A figure to 3 decimals; a dash when there is none: the Evaluation view's rule, so the two views agree. */
export { figure } from '../relevance/figure-text'

/** A difference with its sign always written ("+0.344", "−0.120", "0.000"): a reader should not have to infer the direction. */
export function signed(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const text = Math.abs(value).toFixed(3)
  if (text === '0.000') return '0.000'
  // U+2212: a minus sign lines up with the plus in tabular figures, a hyphen does not.
  return `${value > 0 ? '+' : '−'}${text}`
}

/** A p-value: 3 decimals, and "< 0.001" below (the sampled test's smallest p is 1/10,001; three zeros say nothing more). */
export function pValue(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return value < 0.001 ? '< 0.001' : value.toFixed(3)
}

/** A side's letter: A the baseline, then B, C… */
export const sideLetter = (index: number): string => String.fromCharCode(65 + index)

/** "95 %" for alpha 0.05: the bootstrap interval's level. */
export const levelText = (alpha: number): string => `${Number(((1 - alpha) * 100).toFixed(1))} %`

/**
 * A kept record's time: the time alone for today's (the lists are mostly of
 * one sitting), else the date too; with seconds where runs a minute apart
 * must still be told apart (the trend's axis).
 */
export function whenText(iso: string, options: { seconds?: boolean; now?: Date } = {}): string {
  const at = new Date(iso)
  const today = at.toDateString() === (options.now ?? new Date()).toDateString()
  const timeStyle = options.seconds ? 'medium' : 'short'
  return at.toLocaleString('en-GB', today ? { timeStyle } : { dateStyle: 'medium', timeStyle })
}

/** A CSS custom property of the theme, read when a chart draws (chartPalette has no --ok or --danger). */
export function themeColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim()
}
