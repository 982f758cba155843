import type { ChartConfiguration } from 'chart.js'
import { computed, ref, useId, type Ref } from 'vue'
import type { ProbabilityBand } from '../../../shared/experiments/probability-bands'
import { chartPalette, tooltipColours, useBarChart } from '../statistics/useBarChart'

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
    return {
      type: 'bar',
      data: {
        labels: data.map((row) => row.text),
        datasets: [{ label: 'Mean grade', data: data.map((row) => row.meanGrade), backgroundColor: colours.accent, hoverBackgroundColor: colours.ink, borderRadius: 2, maxBarThickness: 28 }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            title: { display: true, text: 'probability', color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, maxRotation: 0, autoSkip: true },
            grid: { display: false },
            border: { color: colours.grid },
          },
          y: {
            min: 0,
            max: input().maxGrade,
            title: { display: true, text: 'mean grade', color: colours.text, font: { size: 11 } },
            ticks: { color: colours.text, font: { size: 10 }, precision: 0, maxTicksLimit: 5 },
            grid: { color: colours.grid },
            border: { display: false },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            ...tooltipColours(colours),
            callbacks: {
              title: (items) => `Probability ${items[0]?.label ?? ''}`,
              label: (item) => {
                const row = data[item.dataIndex]!
                return [`Mean grade ${row.meanGrade === null ? '—' : row.meanGrade.toFixed(2)}`, `${row.judged} judged of ${row.items} results`]
              },
            },
          },
        },
      },
    }
  }

  const { focus, blur } = useBarChart(canvas, config, [rows, () => input().maxGrade])
  let focused = 0
  function onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    focused = Math.max(0, Math.min(rows.value.length - 1, focused + (event.key === 'ArrowRight' ? 1 : -1)))
    focus(focused)
  }
  const onFocus = () => focus(focused)
  return { canvas, rows, title, tableId, onKey, onFocus, blur }
}
