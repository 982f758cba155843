import { describe, expect, it } from 'vitest'
import { DEFAULT_SCALE, scaleText } from '../../src/shared/relevance/query-set'
import { parseScaleText } from '../../src/shared/relevance/scale-text'

describe('parseScaleText', () => {
  it('reads what scaleText writes, and words of several parts, past stray spaces and commas', () => {
    expect(parseScaleText(scaleText(DEFAULT_SCALE))).toEqual({ ok: true, scale: DEFAULT_SCALE })
    expect(parseScaleText(' 0  Not relevant ,, 10 Spot on , ')).toEqual({
      ok: true,
      scale: [
        { grade: 0, label: 'Not relevant' },
        { grade: 10, label: 'Spot on' },
      ],
    })
  })

  it('names a part that is not a grade and its words', () => {
    expect(parseScaleText('0 Poor, Good')).toEqual({ ok: false, message: '"Good" is not a grade and its words, such as "2 Good"' })
    expect(parseScaleText('0 Poor, -1 Worse')).toEqual({ ok: false, message: '"-1 Worse" is not a grade and its words, such as "2 Good"' })
    expect(parseScaleText(`0 Poor, ${'x'.repeat(100)}`)).toEqual({ ok: false, message: `"${'x'.repeat(60)}" is not a grade and its words, such as "2 Good"` })
  })

  it('says how many grades a scale has, and that they go up', () => {
    expect(parseScaleText('')).toEqual({ ok: false, message: 'a scale has at least two grades' })
    expect(parseScaleText('1 Only')).toEqual({ ok: false, message: 'a scale has at least two grades' })
    expect(parseScaleText(Array.from({ length: 12 }, (_, grade) => `${grade} g`).join(', '))).toEqual({ ok: false, message: 'a scale has at most eleven grades' })
    expect(parseScaleText('2 Good, 1 Fair')).toEqual({ ok: false, message: 'grades go up one step after another: 1 follows 2' })
    expect(parseScaleText('0 Poor, 101 Beyond')).toMatchObject({ ok: false })
  })
})
