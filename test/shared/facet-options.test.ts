import { describe, expect, it } from 'vitest'
import type { ResultsResponse } from '../../src/shared/responses'
import { facetOptions, shownFacetOption } from '../../src/shared/results/facet-options'

/** A facet options endpoint's answer read as options (id, label, count), and how an option reads on screen. */

const RLO = '\u202E'

const answer = (items: ResultsResponse['items']): ResultsResponse => ({ offset: 0, count: items.length, type: ['obj'], items })

describe('facet options', () => {
  it("reads an object's id as the value, its name as the label and its count, and falls back to the id", () => {
    expect(
      facetOptions(
        answer([
          { rank: 1, probability: 0.9, tuple: [{ id: 'YE', class: ['country'], attributes: { name: 'Yemen', count: 12 } }] },
          { rank: 2, probability: 0.5, tuple: [{ id: 'FR', class: ['country'], attributes: { name: '', count: '7' } }] },
          { rank: 3, probability: 0.1, tuple: [{ id: 'ES', class: ['country'] }] },
        ]),
      ),
    ).toEqual([
      { id: 'YE', label: 'Yemen', count: 12, probability: 0.9 },
      { id: 'FR', label: 'FR', count: null, probability: 0.5 },
      { id: 'ES', label: 'ES', count: null, probability: 0.1 },
    ])
  })

  it('a plain string or number is its own id and label; anything else is no option', () => {
    expect(
      facetOptions(
        answer([
          { rank: 1, probability: 1, tuple: ['red'] },
          { rank: 2, probability: 0.5, tuple: [2024] },
          { rank: 3, probability: 0.2, tuple: [null] },
          { rank: 4, probability: 0.1, tuple: [] },
        ]),
      ),
    ).toEqual([
      { id: 'red', label: 'red', count: null, probability: 1 },
      { id: '2024', label: '2024', count: null, probability: 0.5 },
    ])
    expect(facetOptions(answer([]))).toEqual([])
  })

  it("shows a facet option's label and tooltip escaped", () => {
    expect(shownFacetOption({ id: `ye${RLO}01`, label: `Invoice${RLO}txt.exe` })).toEqual({
      label: 'Invoice⟨U+202E⟩txt.exe',
      title: 'Invoice⟨U+202E⟩txt.exe (ye⟨U+202E⟩01)',
    })
    expect(shownFacetOption({ id: `x${RLO}`, label: `x${RLO}` })).toEqual({ label: 'x⟨U+202E⟩', title: 'x⟨U+202E⟩' })
    expect(shownFacetOption({ id: 'YE', label: 'اليمن' })).toEqual({ label: 'اليمن', title: 'اليمن (YE)' })
  })
})
