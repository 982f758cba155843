import type { ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import type { QueryScores } from '../../../shared/relevance/evaluation'
import { chartPalette, tooltipColours, useBarChart } from '../statistics/useBarChart'

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
  })
  const label = computed(() => input().label)

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
    const data = points.value
    return {
      type: 'bar',
      data: {
        labels: data.map((point) => point.text),
        datasets: [{ label: label.value, data: data.map((point) => point.value), backgroundColor: colours.accent, hoverBackgroundColor: colours.ink, borderRadius: 2, maxBarThickness: 18 }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { ticks: { color: colours.text, font: { size: 10 }, autoSkip: true, maxRotation: 60 }, grid: { display: false }, border: { color: colours.grid } },
          y: {
            min: 0,
            max: 1,
            title: { display: true, text: label.value, color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, maxTicksLimit: 6 },
            grid: { color: colours.grid },
            border: { display: false },
          },
        },
        plugins: {
          // The axis names the metric: one series needs no legend.
          legend: { display: false },
          tooltip: { ...tooltipColours(colours), callbacks: { label: (item) => `${label.value}: ${Number(item.raw).toFixed(3)}` } },
        },
      },
    }
  }

  const { focus, blur } = useBarChart(canvas, config, [points, label])
  let focused = 0
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    focused = Math.max(0, Math.min(points.value.length - 1, focused + (event.key === 'ArrowRight' ? 1 : -1)))
    focus(focused)
  }
  const onFocus = () => focus(focused)
  return { canvas, points, tableId, onKey, onFocus, blur }
}
