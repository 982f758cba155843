import { Chart, Legend, type ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import { compareDistribution } from '../../../shared/compare/compare-distribution'
import type { CompareSide } from '../../../shared/ipc/contract'
import { chartPalette, cutoffChartOptions, cutoffTooltipTitle, tooltipColours, useBarChart } from '../../composables/chart-kit'

// Two series need a legend, which the single distribution chart does without.
Chart.register(Legend)

/**
 * Draws both sides' distributions (results at or above each cutoff) as
 * grouped bars, A and B in two colours with a legend; values on hover or
 * keyboard focus, as the single distribution chart shows them.
 */
export interface ChartSide {
  /** As the legend names it: "A · Demo · config default". */
  name: string
  stats: CompareSide['stats']
}

export function useCompareChart(sides: () => { a: ChartSide; b: ChartSide }) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  const tableId = `${useId()}-table`
  const points = computed(() => compareDistribution(sides().a.stats, sides().b.stats))
  const names = computed(() => ({ a: sides().a.name, b: sides().b.name }))
  /** The numbers behind the bars, as the hidden table gives them to screen readers. */
  const count = (value: number | null) => (value === null ? '–' : value.toLocaleString('en-US'))
  const rows = computed(() => points.value.map((point) => ({ label: `≥ ${point.label}`, a: count(point.a), b: count(point.b) })))

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
    const data = points.value
    const { a, b } = names.value
    const bars = { borderRadius: 2, maxBarThickness: 16, categoryPercentage: 0.8, barPercentage: 0.9 }
    return {
      type: 'bar',
      data: {
        labels: data.map((p) => `≥ ${p.label}`),
        datasets: [
          { label: a, data: data.map((p) => p.a), backgroundColor: colours.accent, hoverBackgroundColor: colours.ink, ...bars },
          { label: b, data: data.map((p) => p.b), backgroundColor: colours.warn, hoverBackgroundColor: colours.ink, ...bars },
        ],
      },
      options: {
        ...cutoffChartOptions(colours),
        plugins: {
          legend: {
            display: true,
            position: 'top',
            align: 'start',
            labels: { color: colours.ink, font: { size: 11 }, boxWidth: 12, boxHeight: 12, padding: 8 },
          },
          tooltip: {
            ...tooltipColours(colours),
            callbacks: {
              title: cutoffTooltipTitle,
              label: (item) => `${item.dataset.label ?? ''}: ${item.raw === null ? 'none' : Number(item.raw).toLocaleString('en-US')} results`,
            },
          },
        },
      },
    }
  }

  // Both sides' bars at a cutoff show their tooltip together.
  const { focus: focusPoint, blur } = useBarChart(canvas, config, [points, names])

  /** The arrow keys step through the cutoffs; the tooltip follows. */
  let focused = 0
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    focused += event.key === 'ArrowRight' ? 1 : -1
    focusPoint(focused)
  }
  const onFocus = () => focusPoint(focused)

  return { canvas, rows, tableId, onKey, onFocus, blur }
}
