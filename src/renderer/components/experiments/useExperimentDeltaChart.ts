import type { ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import type { QueryDelta } from '../../../shared/experiments/experiment-record'
import { categoryAxis, chartPalette, oneSeriesBars, useBarChart, useChartKeys, valueAxis } from '../../composables/chart-kit'
import { signed, themeColour } from './experiment-format'

/** The y axis runs from −reach to reach, the first of these that holds every delta (metrics are within [0, 1], deltas within [−1, 1]). */
const REACHES = [0.05, 0.1, 0.25, 0.5, 1]

export interface DeltaChartInput {
  deltas: readonly QueryDelta[]
  /** "nDCG@10". */
  label: string
  /** The compared side's letter. */
  other: string
}

/**
 * Each paired query's delta, largest win first, as bars: wins in the ok
 * colour, losses in the danger colour, ties muted, so the shape of the
 * difference (a few big wins, many small losses) shows at a glance. Queries
 * without a delta (failed, unjudged on a side) are left out and counted.
 */
export function useExperimentDeltaChart(input: () => DeltaChartInput) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  const tableId = `${useId()}-table`
  const points = computed(() =>
    input()
      .deltas.filter((entry) => entry.delta !== null)
      .map((entry) => ({ text: entry.text, delta: entry.delta!, kind: entry.delta! > 0 ? 'win' : entry.delta! < 0 ? 'loss' : 'tie' }))
      .sort((a, b) => b.delta - a.delta),
  )
  const left = computed(() => input().deltas.length - points.value.length)
  const counts = computed(() => ({
    wins: points.value.filter((point) => point.kind === 'win').length,
    ties: points.value.filter((point) => point.kind === 'tie').length,
    losses: points.value.filter((point) => point.kind === 'loss').length,
  }))
  const title = computed(() => `${input().label}: ${input().other} − A for each query, largest win first`)

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
    const fill = { win: themeColour('--ok'), loss: themeColour('--danger'), tie: colours.text }
    const data = points.value
    const label = input().label
    // Symmetric around 0, so a win and a loss of the same size look the same size; a round reach gives round ticks.
    const largest = Math.max(0, ...data.map((point) => Math.abs(point.delta)))
    const reach = REACHES.find((step) => step >= largest) ?? Math.ceil(largest)
    const series = {
      label: `Δ ${label}`,
      labels: data.map((point) => point.text),
      data: data.map((point) => point.delta),
      fill: data.map((point) => fill[point.kind as keyof typeof fill]),
      maxBarThickness: 18,
      // A tie is a bar of height 0: a sliver keeps it visible where it stands.
      minBarLength: 2,
    }
    const scales = { x: categoryAxis(colours, 60), y: valueAxis(colours, `Δ ${label}`, { min: -reach, max: reach }, { maxTicksLimit: 7 }) }
    return oneSeriesBars(colours, series, scales, { label: (item) => `Δ ${label}: ${signed(Number(item.raw))}` })
  }

  const { focus, blur } = useBarChart(canvas, config, [points, () => input().label])
  const { onKey, onFocus } = useChartKeys(() => points.value.length, focus)
  const countsText = computed(() => {
    const { wins, ties, losses } = counts.value
    const other = input().other
    return [`${wins} ${other} ${wins === 1 ? 'win' : 'wins'}`, `${ties} ${ties === 1 ? 'tie' : 'ties'}`, `${losses} ${losses === 1 ? 'loss' : 'losses'}`]
  })
  return { canvas, points, left, countsText, title, tableId, onKey, onFocus, blur, signed }
}
