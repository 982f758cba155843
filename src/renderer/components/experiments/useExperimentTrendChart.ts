import { CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js'
import { ref, useId, type Ref } from 'vue'
import { categoryAxis, chartBasics, chartPalette, tooltipColours, unitAxis, useChart, useChartKeys } from '../../composables/chart-kit'
import { themeColour } from './experiment-format'

// The line parts only, not Chart.js's Legend: the targets are an HTML list under the chart.
Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip)

export interface TrendPoint {
  when: string
  target: string
  series: number
  value: number | null
}

export interface TrendChartInput {
  points: readonly TrendPoint[]
  series: readonly { target: string; style: { colour: string; point: string } }[]
  label: string
}

/**
 * The kept evaluations' means over time, one line per target: x is each
 * evaluation in the order they ran (a category axis; a time axis would need a
 * date adapter and bunch one sitting's runs into a dot), a line joins a
 * target's own evaluations across the others'.
 */
export function useExperimentTrendChart(input: () => TrendChartInput) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  const tableId = `${useId()}-table`

  function config(): ChartConfiguration<'line'> {
    const colours = chartPalette()
    const { points, series, label } = input()
    return {
      type: 'line',
      data: {
        labels: points.map((point) => point.when),
        datasets: series.map((entry, index) => {
          const colour = themeColour(entry.style.colour)
          return {
            label: entry.target,
            data: points.map((point) => (point.series === index ? point.value : null)),
            borderColor: colour,
            backgroundColor: colour,
            pointStyle: entry.style.point as 'circle',
            pointRadius: 4,
            pointHoverRadius: 6,
            borderWidth: 2,
            spanGaps: true,
          }
        }),
      },
      options: {
        ...chartBasics(),
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: { x: categoryAxis(colours, 0), y: unitAxis(colours, label) },
        plugins: {
          // The targets are listed under the chart in HTML, with their marks.
          legend: { display: false },
          tooltip: { ...tooltipColours(colours), callbacks: { label: (item) => `${item.dataset.label}: ${Number(item.raw).toFixed(3)}` } },
        },
      },
    }
  }

  const { activate, blur } = useChart(canvas, config, [() => input().points, () => input().label])
  // The keyboard walks the evaluations in time; each shows its own point's tooltip.
  const { onKey, onFocus } = useChartKeys(
    () => input().points.length,
    (index) => {
      const point = input().points[index]
      if (point) activate(point.value === null ? [] : [{ datasetIndex: point.series, index }])
    },
  )
  return { canvas, tableId, onKey, onFocus, blur }
}
