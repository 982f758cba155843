import type { ChartConfiguration } from 'chart.js'
import { ref, type Ref } from 'vue'
import type { DistributionPoint } from '../../../shared/results/distribution'
import { chartPalette, cutoffChartOptions, cutoffTooltipTitle, tooltipColours, useBarChart } from '../../composables/chart-kit'

/**
 * Draws the distribution (number of results at or above each cutoff) with
 * Chart.js: a bar per cutoff, values on hover or keyboard focus.
 */
export function useDistributionChart(points: () => DistributionPoint[], selectedCutoff: () => number | null) {
  const canvas: Ref<HTMLCanvasElement | null> = ref(null)

  function config(): ChartConfiguration<'bar'> {
    const colours = chartPalette()
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
            backgroundColor: data.map((p) => (chosen !== null && Math.abs(p.cutoff - chosen) < 1e-9 ? colours.ink : colours.accent)),
            hoverBackgroundColor: colours.ink,
            borderRadius: 3,
            maxBarThickness: 28,
          },
        ],
      },
      options: {
        ...cutoffChartOptions(colours),
        plugins: {
          legend: { display: false },
          tooltip: {
            ...tooltipColours(colours),
            displayColors: false,
            callbacks: {
              title: cutoffTooltipTitle,
              label: (item) => `${Number(item.raw).toLocaleString('en-US')} results`,
            },
          },
        },
      },
    }
  }

  const { focus: focusBar, blur } = useBarChart(canvas, config, [points, selectedCutoff])
  return { canvas, focusBar, blur }
}
