import { describe, expect, it } from 'vitest'
import { oneSeriesBars, type ChartPalette } from '../../src/renderer/composables/chart-kit'

/** What every one-series bar chart (Evaluation's per query, Experiments' bands and deltas) draws alike. */

const colours: ChartPalette = { accent: '#0a0', warn: '#a80', text: '#777', grid: '#ddd', panel: '#fff', ink: '#111' }
const scales = { y: { min: 0, max: 1 } }

describe('oneSeriesBars', () => {
  it('draws a bar a point in the accent colour, the text colour under the pointer, with no legend', () => {
    const label = () => 'x'
    const config = oneSeriesBars(colours, { label: 'nDCG@10', labels: ['paris', 'rome'], data: [0.9, null], maxBarThickness: 18 }, scales, { label })
    expect(config.type).toBe('bar')
    expect(config.data.labels).toEqual(['paris', 'rome'])
    expect(config.data.datasets).toEqual([
      { label: 'nDCG@10', data: [0.9, null], backgroundColor: '#0a0', hoverBackgroundColor: '#111', borderRadius: 2, maxBarThickness: 18 },
    ])
    expect(config.options?.plugins?.legend).toEqual({ display: false })
    expect(config.options?.plugins?.tooltip).toMatchObject({ backgroundColor: '#fff', bodyColor: '#111', callbacks: { label } })
    expect(config.options?.scales).toBe(scales)
    expect(config.options).toMatchObject({ responsive: true, maintainAspectRatio: false, animation: false })
  })

  it('takes a colour a bar and a least bar height where the series gives them', () => {
    const config = oneSeriesBars(colours, { label: 'Δ', labels: ['a', 'b'], data: [0.2, 0], fill: ['green', 'grey'], maxBarThickness: 18, minBarLength: 2 }, scales, {})
    expect(config.data.datasets[0]).toMatchObject({ backgroundColor: ['green', 'grey'], minBarLength: 2 })
  })
})
