import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { gradeSourcesOf, settingsText } from '../../../shared/relevance/settings-text'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { figure, levelText, pValue, sideLetter, signed } from './experiment-format'

/** An interval's end: a minus when below 0 and no plus (the Δ beside it carries the direction; the column stays narrow). */
const bound = (value: number) => (value < 0 && value.toFixed(3) !== '-0.000' ? `−${Math.abs(value).toFixed(3)}` : Math.abs(value).toFixed(3))

/**
 * The means table: per metric, the baseline's mean and the compared side's
 * over the paired queries, the mean delta with its bootstrap interval, wins,
 * ties and losses, the p-value before and after Holm's adjustment, and the
 * verdict in words (a colour alone says nothing to a screen reader or in
 * print). Picking a row's metric drives the chart and the query table.
 */
export function useExperimentMeans() {
  const experiments = useExperimentsStore()
  const { shown, other, labels, comparisons, metricKeys, shownMetric } = storeToRefs(experiments)

  const otherLetter = computed(() => sideLetter(other.value + 1))
  const family = computed(() => shown.value?.stats.family ?? 0)
  const alpha = computed(() => shown.value?.stats.alpha ?? 0.05)
  const level = computed(() => levelText(alpha.value))
  const holmText = computed(() => `Holm over ${family.value}`)
  /** Only an experiment with several other sides needs the choice. */
  const otherOptions = computed(() => (shown.value?.sides ?? []).slice(1).map((side, index) => ({ value: index, label: `${sideLetter(index + 1)}: ${side.label}` })))
  const sidesText = computed(() => (shown.value?.sides ?? []).map((side, index) => `${sideLetter(index)}${index === 0 ? ' (baseline)' : ''}: ${side.label}`).join(' · '))

  const rows = computed(() =>
    metricKeys.value.map((key) => {
      const entry = comparisons.value.find((comparison) => comparison.other === other.value && comparison.metric === key) ?? null
      const verdict = !entry || entry.p === null ? 'none' : entry.significant ? 'significant' : 'not'
      return {
        key,
        label: labels.value[key] ?? key,
        picked: key === shownMetric.value,
        baseline: figure(entry?.baselineMean),
        other: figure(entry?.otherMean),
        delta: signed(entry?.meanDelta),
        direction: !entry?.meanDelta ? 'tie' : entry.meanDelta > 0 ? 'win' : 'loss',
        interval: entry?.interval ? `[${bound(entry.interval[0])}, ${bound(entry.interval[1])}]` : '—',
        record: entry ? `${entry.wins} / ${entry.ties} / ${entry.losses}` : '—',
        paired: entry?.n ?? 0,
        p: pValue(entry?.p),
        pAdjusted: pValue(entry?.pAdjusted),
        verdict,
        verdictText: verdict === 'significant' ? 'significant' : verdict === 'not' ? 'not significant' : 'no paired query',
      }
    }),
  )
  const sets = useQuerySetsStore()
  /**
   * How the figures read the grades, as beside the Evaluation view's: the
   * experiment's own settings; which grade of several raters' it used is said
   * when the set (as it is now, if it is the one chosen) has two raters, and
   * always when the set is not at hand.
   */
  const settingsLine = computed(() => {
    const record = shown.value
    if (!record) return ''
    const current = sets.set?.name === record.set ? sets.set : null
    return settingsText(record.settings, record.scale, record.depth, current ? gradeSourcesOf(current) : { raters: 2, adjudicated: false })
  })
  const pairedText = computed(() => {
    const counts = [...new Set(rows.value.map((row) => row.paired))]
    return counts.length === 1 ? `${counts[0]} paired queries` : 'the paired queries'
  })

  function pick(key: string): void {
    experiments.metric = key
  }

  return { shown, other, otherLetter, otherOptions, sidesText, family, alpha, level, holmText, rows, pairedText, settingsLine, pick }
}
