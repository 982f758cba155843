/**
 * A figure of the Evaluation view as every part of it writes one: the mean
 * cards, the query table, the picker of kept evaluations, the chart's
 * tooltip and its table for screen readers. One rule (three decimals, a dash
 * when there is none), so a figure reads the same wherever it shows.
 */
export const figure = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(3))
