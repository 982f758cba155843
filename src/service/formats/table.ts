import { Ref } from '../dataset/model'
import type { Page } from '../query/render'
import { renderObject } from '../query/render'

/**
 * The flat table that csv and xlsx share: rank, probability, then per tuple
 * column n either `n.id`, `n.class`, `n.<attribute>`… (attributes in the order
 * first seen on the page) or, for a simple type, `n`.
 */

export type TableCell = string | number | boolean | null

export interface Table {
  header: string[]
  rows: TableCell[][]
}

function flatten(value: unknown): TableCell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Ref) return value.target.id
  // An expanded reference (level 2 and more) is shown by its id: a cell holds one value.
  if (typeof value === 'object' && 'id' in value) return String((value as { id: unknown }).id)
  return JSON.stringify(value)
}

export function tableOf(page: Page, level: number): Table {
  const width = Math.max(0, ...page.items.map((item) => item.tuple.length))
  const columns: { column: number; object: boolean; attributes: string[] }[] = []
  for (let column = 0; column < width; column++) {
    const attributes: string[] = []
    let object = false
    for (const item of page.items) {
      const cell = item.tuple[column]
      if (cell === undefined || typeof cell === 'string') continue
      object = true
      if (level < 1) continue
      for (const name of Object.keys(cell.attributes)) if (!attributes.includes(name)) attributes.push(name)
    }
    columns.push({ column, object, attributes })
  }
  const header = ['rank', 'probability']
  for (const { column, object, attributes } of columns) {
    const n = column + 1
    if (object) header.push(`${n}.id`, `${n}.class`, ...attributes.map((name) => `${n}.${name}`))
    else header.push(String(n))
  }
  const rows = page.items.map((item, index) => {
    const row: TableCell[] = [page.offset + index + 1, item.p]
    for (const { column, object, attributes } of columns) {
      const cell = item.tuple[column]
      if (!object) {
        row.push(typeof cell === 'string' ? cell : null)
        continue
      }
      if (cell === undefined || typeof cell === 'string') {
        row.push(null, null, ...attributes.map(() => null))
        continue
      }
      const rendered = renderObject(cell, level)
      const values = (rendered.attributes ?? {}) as Record<string, unknown>
      row.push(cell.id, cell.class.join('|'), ...attributes.map((name) => flatten(values[name])))
    }
    return row
  })
  return { header, rows }
}
