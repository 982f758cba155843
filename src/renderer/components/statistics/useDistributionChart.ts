import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js'
import { onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue'
import type { DistributionPoint } from '../../../shared/results/distribution'
import { useTheme } from '../../theme/theme'

// Only the parts drawn here, so the bundle carries no unused chart types.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

/** Colours come from the design tokens, so the chart follows the light or dark theme like the rest of the window. */
function palette() {
  const style = getComputedStyle(document.documentElement)
  const token = (name: string) => style.getPropertyValue(name).trim()
  return { bar: token('--accent'), barSoft: token('--accent-soft'), text: token('--muted'), grid: token('--border'), panel: token('--panel'), ink: token('--text') }
}

/**
 * Draws the distribution (number of results at or above each cutoff) with
 * Chart.js: a bar per cutoff, values on hover or keyboard focus.
 */
export function useDistributionChart(points: () => DistributionPoint[], selectedCutoff: () => number | null) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)
  let chart: Chart<'bar'> | null = null

  function config(): ChartConfiguration<'bar'> {
    const colours = palette()
    const data = points()
    const chosen = selectedCutoff()
    return {
      type: 'bar',
      data: {
        labels: data.map((p) => `≥ ${p.label}`),
        datasets: [
          {
            label: 'Results',
            data: data.map((p) => p.numResults),
            backgroundColor: data.map((p) => (chosen !== null && Math.abs(p.cutoff - chosen) < 1e-9 ? colours.ink : colours.bar)),
            hoverBackgroundColor: colours.ink,
            borderRadius: 3,
            maxBarThickness: 28,
          },
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
          legend: { display: false },
          tooltip: {
            backgroundColor: colours.panel,
            titleColor: colours.ink,
            bodyColor: colours.ink,
            borderColor: colours.grid,
            borderWidth: 1,
            displayColors: false,
            callbacks: {
              title: (items) => `Probability ${items[0]?.label ?? ''}`,
              label: (item) => `${Number(item.raw).toLocaleString('en-US')} results`,
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

  // The canvas keeps the colours it was drawn with: draw again when the theme changes (the switch or the system).
  const { applied } = useTheme()
  onMounted(draw)
  onBeforeUnmount(() => {
    chart?.destroy()
    chart = null
  })
  watch([points, selectedCutoff, applied], draw)

  /** Shows the tooltip of a bar from the keyboard (the canvas has no focusable parts of its own). */
  function focusBar(index: number): void {
    if (!chart) return
    const count = points().length
    if (count === 0) return
    const at = ((index % count) + count) % count
    chart.setActiveElements([{ datasetIndex: 0, index: at }])
    chart.tooltip?.setActiveElements([{ datasetIndex: 0, index: at }], { x: 0, y: 0 })
    chart.update()
  }
  function blur(): void {
    if (!chart) return
    chart.setActiveElements([])
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 })
    chart.update()
  }

  return { canvas, focusBar, blur }
}
