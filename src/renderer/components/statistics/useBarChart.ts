import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartConfiguration, type TooltipItem } from 'chart.js'
import { onBeforeUnmount, onMounted, watch, type Ref, type WatchSource } from 'vue'
import { useTheme } from '../../theme/theme'

// Only the parts the bar charts draw, so the bundle carries no unused chart types.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

/** The design tokens, read when drawing: a chart follows the light or dark theme as the rest of the window does. */
export function chartPalette() {
  const style = getComputedStyle(document.documentElement)
  const token = (name: string) => style.getPropertyValue(name).trim()
  return { accent: token('--accent'), warn: token('--warn'), text: token('--muted'), grid: token('--border'), panel: token('--panel'), ink: token('--text') }
}

export type ChartPalette = ReturnType<typeof chartPalette>
type BarOptions = NonNullable<ChartConfiguration<'bar'>['options']>

/** Results (y) per probability cutoff (x): the axes every distribution chart has. */
function cutoffScales(colours: ChartPalette): BarOptions['scales'] {
  return {
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
  }
}

/**
 * What every distribution chart sets alike: it fills its box, draws at once,
 * shows one tooltip for all bars at a cutoff, on the cutoff axes.
 */
export function cutoffChartOptions(colours: ChartPalette) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    scales: cutoffScales(colours),
  } satisfies BarOptions
}

/** The tooltip's title: the cutoff of the bars under it. */
export const cutoffTooltipTitle = (items: TooltipItem<'bar'>[]) => `Probability ${items[0]?.label ?? ''}`

/** The tooltip's box in the theme's colours. */
export function tooltipColours(colours: ChartPalette) {
  return { backgroundColor: colours.panel, titleColor: colours.ink, bodyColor: colours.ink, borderColor: colours.grid, borderWidth: 1 }
}

/**
 * A Chart.js bar chart on `canvas`, drawn from `config` when mounted and again
 * when any of `sources` or the theme changes (the canvas keeps the colours it
 * was drawn with), and destroyed with the component. `focus` shows a bar's
 * tooltip from the keyboard, as the canvas has no focusable parts of its own.
 */
export function useBarChart(canvas: Ref<HTMLCanvasElement | null>, config: () => ChartConfiguration<'bar'>, sources: WatchSource[]) {
  let chart: Chart<'bar'> | null = null

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
  watch([...sources, applied], draw)

  /** Shows the tooltip of the bar at `index` (wrapping around) in each dataset. */
  function focus(index: number): void {
    if (!chart) return
    const count = chart.data.labels?.length ?? 0
    if (count === 0) return
    const at = ((index % count) + count) % count
    const active = chart.data.datasets.map((_, datasetIndex) => ({ datasetIndex, index: at }))
    chart.setActiveElements(active)
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 })
    chart.update()
  }

  function blur(): void {
    if (!chart) return
    chart.setActiveElements([])
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 })
    chart.update()
  }

  return { focus, blur }
}
