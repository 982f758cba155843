import { describe, expect, it } from 'vitest'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor, ratingColumn, sameColumns, withRatingColumn } from '../../src/shared/results/table'

/** Rows appended by Load more rarely bring a column: the grid keeps its list of columns then, and re-renders no row. */

const city = (rank: number, attributes: Record<string, unknown>): ResultItem => ({ rank, probability: 1, tuple: [{ id: `c${rank}`, class: ['city'], attributes }] })

describe('the same columns', () => {
  it('are the columns of the rows with more rows of the same shape appended', () => {
    const page = [city(1, { name: 'Lyon', country: 'FR' }), city(2, { name: 'Lima', country: 'PE' })]
    const more = [...page, city(3, { name: 'Oslo', country: 'NO' })]
    expect(sameColumns(columnsFor(page), columnsFor(more))).toBe(true)
  })

  it('are not when appended rows bring an attribute, or a choice hides one', () => {
    const page = [city(1, { name: 'Lyon' })]
    expect(sameColumns(columnsFor(page), columnsFor([...page, city(2, { name: 'Lima', population: 1 })]))).toBe(false)
    expect(sameColumns(columnsFor(page), columnsFor(page, { chosen: new Set() }))).toBe(false)
  })

  it('tell a header or a rating apart: the same keys are not enough', () => {
    const columns = columnsFor([city(1, { name: 'Lyon' })])
    expect(sameColumns(columns, columns.map((column) => (column.key === '1.name' ? { ...column, label: 'Name' } : column)))).toBe(false)
    const rated = (grades: Map<string, number>) => withRatingColumn(columns, ratingColumn(grades, [{ grade: 0, label: 'Bad' }, { grade: 1, label: 'Good' }]))
    expect(sameColumns(rated(new Map()), rated(new Map()))).toBe(false)
    const kept = rated(new Map())
    expect(sameColumns(kept, [...kept])).toBe(true)
  })
})
