import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from 'chart.js'
import { computed, onBeforeUnmount, onMounted, ref, useId, watch, type Ref } from 'vue'
import { compareDistribution } from '../../../shared/compare/compare-distribution'
import type { CompareSide } from '../../../shared/ipc/contract'
import { useTheme } from '../../theme/theme'

// Only the parts drawn here (the legend too: two series need one).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend)

/** The design tokens, read when drawing: the chart follows the light or dark theme as the rest of the window does. */
function palette() {
  const style = getComputedStyle(document.documentElement)
  const token = (name: string) => style.getPropertyValue(name).trim()
  return { a: token('--accent'), b: token('--warn'), text: token('--muted'), grid: token('--border'), panel: token('--panel'), ink: token('--text') }
}

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
  let chart: Chart<'bar'> | null = null
  const points = computed(() => compareDistribution(sides().a.stats, sides().b.stats))
  const names = computed(() => ({ a: sides().a.name, b: sides().b.name }))
  /** The numbers behind the bars, as the hidden table gives them to screen readers. */
  const count = (value: number | null) => (value === null ? '–' : value.toLocaleString('en-US'))
  const rows = computed(() => points.value.map((point) => ({ label: `≥ ${point.label}`, a: count(point.a), b: count(point.b) })))

  function config(): ChartConfiguration<'bar'> {
    const colours = palette()
    const data = points.value
    const { a, b } = names.value
    const bars = { borderRadius: 2, maxBarThickness: 16, categoryPercentage: 0.8, barPercentage: 0.9 }
    return {
      type: 'bar',
      data: {
        labels: data.map((p) => `≥ ${p.label}`),
        datasets: [
          { label: a, data: data.map((p) => p.a), backgroundColor: colours.a, hoverBackgroundColor: colours.ink, ...bars },
          { label: b, data: data.map((p) => p.b), backgroundColor: colours.b, hoverBackgroundColor: colours.ink, ...bars },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            title: { display: true, text: 'probability cutoff', color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, maxRotation: 0, autoSkip: true },
            grid: { display: false },
            border: { color: colours.grid },
          },
          y: {
            beginAtZero: true,
            title: { display: true, text: 'results', color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, precision: 0, maxTicksLimit: 5 },
            grid: { color: colours.grid },
            border: { display: false },
          },
        },
        plugins: {
          legend: {
            display: true,
            position: 'top',
            align: 'start',
            labels: { color: colours.ink, font: { size: 11 }, boxWidth: 12, boxHeight: 12, padding: 8 },
          },
          tooltip: {
            backgroundColor: colours.panel,
            titleColor: colours.ink,
            bodyColor: colours.ink,
            borderColor: colours.grid,
            borderWidth: 1,
            callbacks: {
              title: (items) => `Probability ${items[0]?.label ?? ''}`,
              label: (item) => `${item.dataset.label ?? ''}: ${item.raw === null ? 'none' : Number(item.raw).toLocaleString('en-US')} results`,
            },
          },
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

  // The canvas keeps the colours it was drawn with: draw again when the theme changes.
  const { applied } = useTheme()
  onMounted(draw)
  onBeforeUnmount(() => {
    chart?.destroy()
    chart = null
  })
  watch([points, names, applied], draw)

  /** Shows a cutoff's tooltip (both sides) from the keyboard: the canvas has no focusable parts of its own. */
  function focusPoint(index: number): void {
    if (!chart) return
    const count = points.value.length
    if (count === 0) return
    const at = ((index % count) + count) % count
    const active = [0, 1].map((datasetIndex) => ({ datasetIndex, index: at }))
    chart.setActiveElements(active)
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 })
    chart.update()
  }
  /** The arrow keys step through the cutoffs; the tooltip follows. */
  let focused = 0
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    focused += event.key === 'ArrowRight' ? 1 : -1
    focusPoint(focused)
  }
  const onFocus = () => focusPoint(focused)

  function blur(): void {
    if (!chart) return
    chart.setActiveElements([])
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 })
    chart.update()
  }

  return { canvas, rows, tableId, onKey, onFocus, blur }
}
