import { CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js'
import { onBeforeUnmount, onMounted, ref, useId, watch, type Ref } from 'vue'
import { useTheme } from '../../theme/theme'
import { chartPalette, tooltipColours } from '../statistics/useBarChart'
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
  let chart: Chart<'line'> | null = null

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
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: {
          x: { ticks: { color: colours.text, font: { size: 10 }, autoSkip: true, maxRotation: 0 }, grid: { display: false }, border: { color: colours.grid } },
          y: {
            min: 0,
            max: 1,
            title: { display: true, text: label, color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, maxTicksLimit: 6 },
            grid: { color: colours.grid },
            border: { display: false },
          },
        },
        plugins: {
          // The targets are listed under the chart in HTML, with their marks.
          legend: { display: false },
          tooltip: { ...tooltipColours(colours), callbacks: { label: (item) => `${item.dataset.label}: ${Number(item.raw).toFixed(3)}` } },
        },
      },
    }
  }

  function draw(): void {
    if (!canvas.value) return
    const next = config()
    if (!chart) {
      chart = new Chart(canvas.value, next)
      return
    }
    chart.data = next.data
    chart.options = next.options ?? {}
    chart.update()
  }
  const { applied } = useTheme()
  onMounted(draw)
  onBeforeUnmount(() => {
    chart?.destroy()
    chart = null
  })
  watch([() => input().points, () => input().label, applied], draw)

  // The keyboard walks the evaluations in time; each shows its own point's tooltip.
  let focused = 0
  function show(index: number): void {
    const points = input().points
    if (!chart || points.length === 0) return
    focused = Math.max(0, Math.min(points.length - 1, index))
    const point = points[focused]!
    const active = point.value === null ? [] : [{ datasetIndex: point.series, index: focused }]
    chart.setActiveElements(active)
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 })
    chart.update()
  }
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    show(focused + (event.key === 'ArrowRight' ? 1 : -1))
  }
  const onFocus = () => show(focused)
  function blur(): void {
    if (!chart) return
    chart.setActiveElements([])
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 })
    chart.update()
  }
  return { canvas, tableId, onKey, onFocus, blur }
}
