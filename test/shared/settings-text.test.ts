import { describe, expect, it } from 'vitest'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'
import { aggregateText, gradeSourcesOf, settingsText } from '../../src/shared/relevance/settings-text'

describe('settingsText', () => {
  it('says the gain, how unjudged results count, the threshold with its word, and the depth when given', () => {
    expect(settingsText({ gain: 'exponential', unjudged: 'zero', threshold: 1 }, DEFAULT_SCALE, 10)).toBe(
      'exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 10',
    )
    expect(settingsText({ gain: 'linear', unjudged: 'skip', threshold: 3 }, DEFAULT_SCALE)).toBe(
      'linear gain (g) · unjudged results skipped · relevant from grade 3 (Perfect)',
    )
  })

  it('gives a threshold that is not a step of the scale without words', () => {
    const scale = [
      { grade: 0, label: 'No' },
      { grade: 4, label: 'Yes' },
    ]
    expect(settingsText({ gain: 'linear', unjudged: 'zero', threshold: 2 }, scale, 0)).toBe(
      'linear gain (g) · unjudged results count as not relevant · relevant from grade 2 · depth 0',
    )
  })
})

describe('the aggregate beside the figures', () => {
  const judgments = (...raters: string[]) => raters.map((rater) => ({ rater }))

  it('counts the raters the judgments name, not those only listed, and whether a settled grade is among them', () => {
    expect(gradeSourcesOf({ judgments: judgments('alice', 'alice', 'bob') })).toEqual({ raters: 2, adjudicated: false })
    expect(gradeSourcesOf({ raters: [{ name: 'carol', kind: 'import' }], judgments: judgments('alice') })).toEqual({ raters: 1, adjudicated: false })
    // "adjudication" is Settle's rater even when the set does not list it; a listed rater of that kind counts too.
    expect(gradeSourcesOf({ judgments: judgments('alice', 'adjudication') })).toEqual({ raters: 2, adjudicated: true })
    expect(gradeSourcesOf({ raters: [{ name: 'lead', kind: 'adjudication' }], judgments: judgments('alice', 'bob', 'lead') })).toEqual({ raters: 3, adjudicated: true })
  })

  it('says each rule in words from two raters, Quepid naming max and min optimistic and pessimistic', () => {
    const two = { raters: 2, adjudicated: false }
    expect(aggregateText(undefined, two)).toBe("grade: mean of the raters' grades")
    expect(aggregateText('mean', two)).toBe("grade: mean of the raters' grades")
    expect(aggregateText('median', two)).toBe("grade: median of the raters' grades")
    expect(aggregateText('majority', two)).toBe("grade: majority of the raters' grades (ties to the lower)")
    expect(aggregateText('max', two)).toBe("grade: optimistic (the highest of the raters' grades)")
    expect(aggregateText('min', two)).toBe("grade: pessimistic (the lowest of the raters' grades)")
    expect(aggregateText('rater:alice', two)).toBe("grade: rater alice's")
    expect(aggregateText('rater:llm:gpt-4o', two)).toBe('grade: rater "llm:gpt-4o"\'s')
    expect(aggregateText('rater:rule: strict', two)).toBe('grade: rater "rule: strict"\'s')
    expect(aggregateText('max', { raters: 3, adjudicated: true })).toBe("grade: optimistic (the highest of the raters' grades), a settled grade wins")
  })

  it('says nothing of it with one rater or none, where every rule gives the one grade there is', () => {
    expect(aggregateText('max', { raters: 1, adjudicated: false })).toBeNull()
    expect(aggregateText('mean', { raters: 0, adjudicated: false })).toBeNull()
    const settings = { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'min' } as const
    expect(settingsText(settings, DEFAULT_SCALE, 10, { raters: 1, adjudicated: false })).toBe(
      'exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 10',
    )
    expect(settingsText(settings, DEFAULT_SCALE, 10, { raters: 2, adjudicated: false })).toBe(
      "grade: pessimistic (the lowest of the raters' grades) · exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 10",
    )
  })
})
