import { describe, expect, it } from 'vitest'
import { figure as experimentFigure } from '../../src/renderer/components/experiments/experiment-format'
import { figure } from '../../src/renderer/components/relevance/figure-text'

/** A figure of the Evaluation and Experiments views (src/renderer/components/relevance/figure-text.ts): three decimals, a dash when there is none. */

describe('figure', () => {
  it('writes a figure with three decimals, rounded, whole numbers and zero included', () => {
    expect(figure(0.5)).toBe('0.500')
    expect(figure(1)).toBe('1.000')
    expect(figure(0)).toBe('0.000')
    expect(figure(0.12345)).toBe('0.123')
    expect(figure(0.6667)).toBe('0.667')
    expect(figure(2 / 3)).toBe('0.667')
    // A delta can be negative.
    expect(figure(-0.25)).toBe('-0.250')
  })

  it('shows a dash for a figure there is none of (a failed or unjudged query) or one that is not a number', () => {
    for (const none of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(figure(none)).toBe('—')
  })

  it('is the one rule the Experiments view writes its figures with', () => {
    expect(experimentFigure).toBe(figure)
  })
})
