import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { notComparable } from '../../../shared/relevance/evaluation-summary'
import { useEvaluationsStore } from '../../stores/evaluations'
import { useExperimentsStore } from '../../stores/experiments'
import { figure, whenText } from './experiment-format'

/** Each target's colour and mark (the mark tells the lines apart without colour); more targets than these share the last (rare: a set is evaluated on a few). */
export const SERIES_STYLES = [
  { colour: '--accent', point: 'circle', glyph: '●' },
  { colour: '--warn', point: 'triangle', glyph: '▲' },
  { colour: '--ok', point: 'rect', glyph: '■' },
  { colour: '--danger', point: 'rectRot', glyph: '◆' },
  { colour: '--text', point: 'crossRot', glyph: '✕' },
  { colour: '--muted', point: 'star', glyph: '✱' },
] as const

/**
 * History: the set's kept evaluations, oldest first, the picked metric's
 * mean of each, one series per target; and those whose figures can't be set
 * beside the newest one's (another depth, other judgments…), with why.
 */
export function useExperimentTrend() {
  const experiments = useExperimentsStore()
  const evaluations = useEvaluationsStore()
  const { kept } = storeToRefs(evaluations)
  const { shownMetric, labels } = storeToRefs(experiments)

  const metric = computed(() => shownMetric.value)
  const label = computed(() => (metric.value ? (labels.value[metric.value] ?? metric.value) : ''))
  const ordered = computed(() => [...kept.value].sort((a, b) => a.at.localeCompare(b.at)))
  const targets = computed(() => [...new Set(ordered.value.map((entry) => entry.targetText))])
  const points = computed(() =>
    ordered.value.map((entry) => ({
      id: entry.id,
      when: whenText(entry.at, { seconds: true }),
      target: entry.targetText,
      series: targets.value.indexOf(entry.targetText),
      value: metric.value ? (entry.scored.means[metric.value] ?? null) : null,
      cancelled: entry.state === 'cancelled',
    })),
  )
  const series = computed(() => targets.value.map((target, index) => ({ target, style: SERIES_STYLES[Math.min(index, SERIES_STYLES.length - 1)]! })))
  const rows = computed(() => points.value.map((point) => ({ ...point, valueText: figure(point.value) })))

  const newest = computed(() => ordered.value[ordered.value.length - 1] ?? null)
  const notComparableRows = computed(() => {
    const last = newest.value
    if (!last) return []
    return ordered.value
      .filter((entry) => entry.id !== last.id)
      .map((entry) => ({ id: entry.id, when: whenText(entry.at), target: entry.targetText, why: notComparable(last, entry) }))
      .filter((entry) => entry.why.length > 0)
      .reverse()
  })
  const newestText = computed(() => (newest.value ? `${whenText(newest.value.at)} · ${newest.value.targetText}` : ''))

  return { metric, label, points, series, rows, newest, newestText, notComparableRows, count: computed(() => kept.value.length) }
}
