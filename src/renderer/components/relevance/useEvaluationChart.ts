import type { ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import type { QueryScores } from '../../../shared/relevance/evaluation'
import { categoryAxis, chartPalette, oneSeriesBars, unitAxis, useBarChart, useChartKeys } from '../../composables/chart-kit'
import { figure } from './figure-text'

/**
 * Each query's figure for one metric, highest first, as bars: where a
 * configuration does well and where it fails at a glance. Queries with no
 * figure (no judgment, failed) are left out and counted under the chart.
 */
export function useEvaluationChart(input: () => { queries: readonly QueryScores[]; metric: string; label: string }) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  const tableId = `${useId()}-table`
  const points = computed(() => {
    const { queries, metric } = input()
    return queries
      .filter((query) => query.scores !== null)
      .map((query) => ({ text: query.text, value: query.scores![metric] ?? 0 }))
      .sort((a, b) => b.value - a.value)
      .map((point) => ({ ...point, shown: figure(point.value) }))
  })
  const label = computed(() => input().label)

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
    const data = points.value
    const series = { label: label.value, labels: data.map((point) => point.text), data: data.map((point) => point.value), maxBarThickness: 18 }
    return oneSeriesBars(colours, series, { x: categoryAxis(colours, 60), y: unitAxis(colours, label.value) }, {
      label: (item) => `${label.value}: ${figure(Number(item.raw))}`,
    })
  }

  const { focus, blur } = useBarChart(canvas, config, [points, label])
  const { onKey, onFocus } = useChartKeys(() => points.value.length, focus)
  return { canvas, points, tableId, onKey, onFocus, blur }
}
