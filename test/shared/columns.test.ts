import { describe, expect, it } from 'vitest'
import { alignment, columnKeys, columnName, MAX_EXPORT_COLUMNS, mergeColumns, realign, tooManyColumns } from '../../src/shared/export/columns'

describe('csv pages with different columns', () => {
  it('keeps the first page order and puts a column new to a tuple column among its own', () => {
    const first = columnKeys(['rank', 'probability', '1.id', '1.class', '1.name', '2.id', '2.class'])
    const second = columnKeys(['rank', 'probability', '1.id', '1.class', '1.elevation', '1.name', '2.id', '2.class', '2.capital', '3'])
    expect(mergeColumns(mergeColumns([], first), second)).toEqual([
      'rank', 'probability', '1.id', '1.class', '1.name', '1.elevation', '2.id', '2.class', '2.capital', '3',
    ])
  })

  it('moves every cell under the header it had on its page, and leaves the others empty', () => {
    const pageA = ['rank', 'probability', '1.id', '1.class', '1.name', '1.population']
    const pageB = ['rank', 'probability', '1.id', '1.class', '1.population', '1.area']
    const union = mergeColumns(mergeColumns([], columnKeys(pageA)), columnKeys(pageB))
    const rowA = realign(['1', '0.9', 'a', 'city', 'Alpha', '100'], alignment(union, columnKeys(pageA)), '')
    const rowB = realign(['101', '0.4', 'b', 'country', '2000', '55'], alignment(union, columnKeys(pageB)), '')
    const named = (row: string[]) => Object.fromEntries(union.map((key, i) => [columnName(key), row[i]]))
    expect(named(rowA)).toEqual({ rank: '1', probability: '0.9', '1.id': 'a', '1.class': 'city', '1.name': 'Alpha', '1.population': '100', '1.area': '' })
    expect(named(rowB)).toEqual({ rank: '101', probability: '0.4', '1.id': 'b', '1.class': 'country', '1.name': '', '1.population': '2000', '1.area': '55' })
  })

  it('keeps two columns of one name apart (an attribute called "id" beside the object id)', () => {
    const keys = columnKeys(['rank', '1.id', '1.class', '1.id'])
    expect(new Set(keys).size).toBe(4)
    expect(keys.map(columnName)).toEqual(['rank', '1.id', '1.class', '1.id'])
    const row = realign(['1', 'obj', 'city', 'attr'], alignment(keys, keys), '')
    expect(row).toEqual(['1', 'obj', 'city', 'attr'])
  })

  it('fills a short row and drops cells past its page header', () => {
    const keys = columnKeys(['rank', 'probability', '1'])
    expect(realign(['1'], alignment(keys, keys), '')).toEqual(['1', '', ''])
    expect(realign(['1', '0.5', 'x', 'extra'], alignment(keys, keys), '')).toEqual(['1', '0.5', 'x'])
  })
})

describe('csv pages of many columns', () => {
  it('merges 60,000 columns in one pass, keeping each tuple column\'s group together', () => {
    const wide = ['rank', 'probability', ...Array.from({ length: 60_000 }, (_, i) => `${(i % 3) + 1}.a${i}`)]
    const union = mergeColumns([], columnKeys(wide))
    expect(union).toHaveLength(60_002)
    expect(union.slice(0, 4)).toEqual(['rank', 'probability', '1.a0', '1.a3'])
    expect(union[2 + 20_000]).toBe('2.a1')
  })

  it('says how many columns are too many for an export', () => {
    expect(tooManyColumns(MAX_EXPORT_COLUMNS)).toBeNull()
    expect(tooManyColumns(60_002)).toBe("its pages have 60,002 columns together, more than the 16,384 an export takes (a spreadsheet's widest).")
  })
})
