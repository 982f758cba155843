import type { ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import type { ProbabilityBand } from '../../../shared/experiments/probability-bands'
import { categoryAxis, chartPalette, cutoffTooltipTitle, oneSeriesBars, useBarChart, useChartKeys, valueAxis } from '../../composables/chart-kit'

export interface BandsChartInput {
  bands: readonly ProbabilityBand[]
  maxGrade: number
  /** The side's letter, for the chart's name. */
  side: string
}

/** "0.6–0.7". */
export const bandText = (band: ProbabilityBand) => `${band.from.toFixed(1)}–${band.to.toFixed(1)}`

/**
 * The mean grade of the judged results in each probability band: bars that
 * rise from left to right say the probability tracks relevance. A band with
 * no judged result has no bar (its count still shows in the table).
 */
export function useExperimentBandsChart(input: () => BandsChartInput) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  const tableId = `${useId()}-table`
  const rows = computed(() =>
    input().bands.map((band) => ({ text: bandText(band), items: band.items, judged: band.judged, meanGrade: band.meanGrade })),
  )
  const title = computed(() => `Mean grade of ${input().side}'s judged results in each probability band`)

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
    const data = rows.value
    const series = { label: 'Mean grade', labels: data.map((row) => row.text), data: data.map((row) => row.meanGrade), maxBarThickness: 28 }
    const scales = {
      x: categoryAxis(colours, 0, 'probability'),
      y: valueAxis(colours, 'mean grade', { min: 0, max: input().maxGrade }, { precision: 0, maxTicksLimit: 5 }),
    }
    return oneSeriesBars(colours, series, scales, {
      title: cutoffTooltipTitle,
      label: (item) => {
        const row = data[item.dataIndex]!
        return [`Mean grade ${row.meanGrade === null ? '—' : row.meanGrade.toFixed(2)}`, `${row.judged} judged of ${row.items} results`]
      },
    })
  }

  const { focus, blur } = useBarChart(canvas, config, [rows, () => input().maxGrade])
  const { onKey, onFocus } = useChartKeys(() => rows.value.length, focus)
  return { canvas, rows, title, tableId, onKey, onFocus, blur }
}
