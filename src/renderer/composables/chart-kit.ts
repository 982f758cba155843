import type { ActiveDataPoint, Chart, ChartConfiguration, ChartOptions, ChartType, TooltipItem } from 'chart.js'
import { onBeforeUnmount, onMounted, watch, type Ref, type WatchSource } from 'vue'
import { afterNextFrame } from '../perf/after-next-frame'
import { useTheme } from '../theme/theme'

/**
 * The chart kit every chart of the window is drawn with (the statistics answer's distribution, Compare,
 * Evaluation, Experiments): Chart.js read on first use, the theme's colours, the axes and options the charts
 * share, a chart's life on its canvas (useChart, useBarChart) and its keyboard focus (useChartKeys).
 */

let chartJs: Promise<typeof Chart> | null = null

/**
 * Chart.js, read with the first chart drawn rather than with the window: no
 * chart shows at start, and it was the largest module run before the first paint.
 */
export function loadChartJs(): Promise<typeof Chart> {
  chartJs ??= import('chart.js').then(({ BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip }) => {
    // Only the parts the bar charts draw, so the bundle carries no unused chart types.
    Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)
    return Chart
  })
  return chartJs
}

/** The design tokens, read when drawing: a chart follows the light or dark theme as the rest of the window does. */
export function chartPalette() {
  const style = getComputedStyle(document.documentElement)
  const token = (name: string) => style.getPropertyValue(name).trim()
  return { accent: token('--accent'), warn: token('--warn'), text: token('--muted'), grid: token('--border'), panel: token('--panel'), ink: token('--text') }
}

export type ChartPalette = ReturnType<typeof chartPalette>
type BarOptions = NonNullable<ChartConfiguration<'bar'>['options']>

/** An axis's name, in the muted colour. */
const axisTitle = (text: string, colours: ChartPalette) => ({ display: true, text, color: colours.text, font: { size: 11 } })

/** An x axis of names (queries, cutoffs, bands, times): turned up to `maxRotation` degrees where they crowd, some skipped, no grid lines. */
export function categoryAxis(colours: ChartPalette, maxRotation: number, title?: string) {
  return {
    ...(title === undefined ? {} : { title: axisTitle(title, colours) }),
    ticks: { color: colours.text, font: { size: 10 }, maxRotation, autoSkip: true },
    grid: { display: false },
    border: { color: colours.grid },
  }
}

/** A y axis of values, named, with grid lines: `range` its ends (or from zero), `ticks` how many and how precise. */
export function valueAxis(colours: ChartPalette, title: string, range: { min: number; max: number } | { beginAtZero: true }, ticks: { maxTicksLimit: number; precision?: number }) {
  return {
    ...range,
    title: axisTitle(title, colours),
    ticks: { color: colours.text, font: { size: 10 }, ...ticks },
    grid: { color: colours.grid },
    border: { display: false },
  }
}

/** The y axis of a figure in [0, 1], a metric's: from 0 to 1, named by it. */
export const unitAxis = (colours: ChartPalette, title: string) => valueAxis(colours, title, { min: 0, max: 1 }, { maxTicksLimit: 6 })

/** What every chart here sets alike: it fills its box, draws at once, and shows one tooltip for all its points at an x. */
export const chartBasics = () => ({ responsive: true, maintainAspectRatio: false, animation: false, interaction: { mode: 'index', intersect: false } }) as const

/** Results (y) per probability cutoff (x): the axes every distribution chart has. */
function cutoffScales(colours: ChartPalette): BarOptions['scales'] {
  return {
    x: categoryAxis(colours, 0, 'probability cutoff'),
    y: valueAxis(colours, 'results', { beginAtZero: true }, { precision: 0, maxTicksLimit: 5 }),
  }
}

/** The basics, on the cutoff axes: what every distribution chart sets alike. */
export function cutoffChartOptions(colours: ChartPalette) {
  return { ...chartBasics(), scales: cutoffScales(colours) } satisfies BarOptions
}

/** The tooltip's title: the cutoff of the bars under it. */
export const cutoffTooltipTitle = (items: TooltipItem<'bar'>[]) => `Probability ${items[0]?.label ?? ''}`

/** The tooltip's box in the theme's colours. */
export function tooltipColours(colours: ChartPalette) {
  return { backgroundColor: colours.panel, titleColor: colours.ink, bodyColor: colours.ink, borderColor: colours.grid, borderWidth: 1 }
}

/** One series of bars: its name, a label and a value a bar, how wide a bar may grow, and `fill`, a colour a bar where they differ. */
export interface BarSeries {
  label: string
  labels: string[]
  data: (number | null)[]
  maxBarThickness: number
  fill?: string[]
  /** The least height a bar is drawn with, so a bar of 0 still shows where it stands. */
  minBarLength?: number
}

/**
 * A chart of one series of bars over named points (queries, bands): in the accent colour unless the series says
 * otherwise, the text colour under the pointer, and no legend, as the y axis names what the bars measure. The
 * axes and the tooltip's lines are the chart's own.
 */
export function oneSeriesBars(
  colours: ChartPalette,
  series: BarSeries,
  scales: BarOptions['scales'],
  callbacks: NonNullable<NonNullable<BarOptions['plugins']>['tooltip']>['callbacks'],
): ChartConfiguration<'bar'> {
  const { label, labels, data, maxBarThickness, fill, minBarLength } = series
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [{ label, data, backgroundColor: fill ?? colours.accent, hoverBackgroundColor: colours.ink, borderRadius: 2, maxBarThickness, ...(minBarLength === undefined ? {} : { minBarLength }) }],
    },
    options: {
      ...chartBasics(),
      scales,
      plugins: { legend: { display: false }, tooltip: { ...tooltipColours(colours), callbacks } },
    },
  }
}

/**
 * A Chart.js chart on `canvas`, drawn from `config` when mounted and again
 * when any of `sources` or the theme changes (the canvas keeps the colours it
 * was drawn with), and destroyed with the component. `activate` shows the
 * tooltip of the points given, from the keyboard, as the canvas has no
 * focusable parts of its own; `blur` hides it.
 */
export function useChart<TType extends ChartType>(canvas: Ref<HTMLCanvasElement | null>, config: () => ChartConfiguration<TType>, sources: WatchSource[]) {
  let chart: Chart<TType> | null = null
  let mounted = false

  async function create(): Promise<void> {
    const ChartJs = await loadChartJs()
    // Unmounted meanwhile, or drawn by a call that got here first.
    if (!mounted || chart || !canvas.value) return
    chart = new ChartJs(canvas.value, config())
  }

  function draw(): void {
    if (!canvas.value) return
    if (!chart) {
      void create()
      return
    }
    const next = config()
    chart.data = next.data
    chart.options = next.options ?? ({} as ChartOptions<TType>)
    chart.update()
  }

  // A new answer redraws the chart once the frame that shows it is drawn: drawn at once, its layout (and the
  // page's style it reads for the colours) held back the grid's rows by several milliseconds of every Run.
  let drawing = false
  function drawSoon(): void {
    if (drawing) return
    drawing = true
    afterNextFrame(() => {
      drawing = false
      if (mounted) draw()
    })
  }

  const { applied } = useTheme()
  onMounted(() => {
    mounted = true
    draw()
  })
  onBeforeUnmount(() => {
    mounted = false
    chart?.destroy()
    chart = null
  })
  watch([...sources, applied], drawSoon)

  function activate(active: ActiveDataPoint[]): void {
    if (!chart) return
    chart.setActiveElements(active)
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 })
    chart.update()
  }

  return { chart: () => chart, activate, blur: () => activate([]) }
}

/** A bar chart (useChart); `focus` shows the tooltip of the bars at an index, wrapping around, in each dataset. */
export function useBarChart(canvas: Ref<HTMLCanvasElement | null>, config: () => ChartConfiguration<'bar'>, sources: WatchSource[]) {
  const { chart, activate, blur } = useChart(canvas, config, sources)

  function focus(index: number): void {
    const current = chart()
    if (!current) return
    const count = current.data.labels?.length ?? 0
    if (count === 0) return
    const at = ((index % count) + count) % count
    activate(current.data.datasets.map((_, datasetIndex) => ({ datasetIndex, index: at })))
  }

  return { focus, blur }
}

/**
 * The arrow keys step a chart's keyboard focus through its `count()` points,
 * held at the ends, each shown by `show`; focusing the chart shows the one
 * last stepped to.
 */
export function useChartKeys(count: () => number, show: (index: number) => void) {
  let focused = 0
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    focused = Math.max(0, Math.min(count() - 1, focused + (event.key === 'ArrowRight' ? 1 : -1)))
    show(focused)
  }
  const onFocus = () => show(focused)
  return { onKey, onFocus }
}
