import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { sideLetter, whenText } from './experiment-format'

/**
 * Side labels without the words they all start with ("Demo, config default",
 * "Demo, config production" → "default", "production"), so a kept
 * experiment's line says what differs within a select's width.
 */
export function shortLabels(labels: readonly string[]): string[] {
  if (labels.length < 2) return [...labels]
  let common = labels[0]!
  for (const label of labels) while (!label.startsWith(common)) common = common.slice(0, -1)
  // Cut back to a whole word: "Demo, config " and not "Demo, config d".
  const cut = common.lastIndexOf(' ') + 1
  return labels.every((label) => label.length > cut) ? labels.map((label) => label.slice(cut)) : [...labels]
}

/**
 * The Experiments view's frame: the kept experiments of the set (chosen in
 * the QuerySetPicker it shares with the Evaluation view), and which parts of
 * the one shown have something to show.
 */
export function useExperimentsView() {
  const sets = useQuerySetsStore()
  const experiments = useExperimentsStore()
  const { summaries, set } = storeToRefs(sets)
  const { shown, kept, error, running, shownMetric, labels, deltas, other } = storeToRefs(experiments)

  const keptOptions = computed(() =>
    kept.value.map((entry) => {
      const names = shortLabels(entry.sides.map((side) => side.label))
      const sides = names.map((name, index) => `${sideLetter(index)} ${name}`).join(' vs ')
      const cancelled = entry.state === 'cancelled' ? ' · cancelled' : ''
      return { value: entry.id, label: `${whenText(entry.at)} · ${sides} · ${entry.significant} of ${entry.comparisons} significant${cancelled}` }
    }),
  )
  const metricLabel = computed(() => (shownMetric.value ? (labels.value[shownMetric.value] ?? shownMetric.value) : ''))
  const otherLetter = computed(() => sideLetter(other.value + 1))
  const hasAttribution = computed(() => (shown.value?.attribution.length ?? 0) > 0)
  const aboutText = computed(() => {
    const record = shown.value
    if (!record) return ''
    const seconds = (record.durationMs / 1000).toFixed(1)
    return `${record.sides.length} sides · depth ${record.depth} · α ${record.stats.alpha} · ${seconds} s${record.reused > 0 ? ` · ${record.reused} pages reused within the run` : ''}`
  })

  function showKept(id: string): void {
    void experiments.show(id)
  }

  return {
    summaries, set, shown, kept, error, running, keptOptions, metricLabel, otherLetter, deltas, hasAttribution, aboutText,
    showKept,
  }
}
