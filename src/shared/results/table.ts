import type { ResultItem, TupleObject, TupleValue } from '../responses'

/**
 * Turns result items into a table: rank, probability, then per tuple column
 * either the object's id, class and attributes, or the simple value. Works on
 * both tuple forms (array, or object keyed by 1-based column number when
 * homogeneousArrays is on).
 */

export interface Column {
  key: string
  label: string
  /** Tuple column (1-based) this column comes from; 0 for rank and probability. */
  tupleColumn: number
  kind: 'rank' | 'probability' | 'id' | 'class' | 'attribute' | 'value'
  attribute?: string
}

export interface Row {
  rank: number
  probability: number
  cells: Record<string, string>
  item: ResultItem
}

export function tupleValues(item: ResultItem): TupleValue[] {
  if (Array.isArray(item.tuple)) return item.tuple
  return Object.keys(item.tuple)
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => (item.tuple as Record<string, TupleValue>)[key] ?? null)
}

export function isTupleObject(value: TupleValue): value is TupleObject {
  return typeof value === 'object' && value !== null && typeof (value as TupleObject).id === 'string'
}

/** Attributes in first-seen order per tuple column, so columns stay stable while paging. */
export function attributeNames(items: ResultItem[]): Map<number, string[]> {
  const names = new Map<number, string[]>()
  for (const item of items) {
    tupleValues(item).forEach((value, index) => {
      if (!isTupleObject(value) || !value.attributes) return
      const list = names.get(index + 1) ?? []
      for (const name of Object.keys(value.attributes)) if (!list.includes(name)) list.push(name)
      names.set(index + 1, list)
    })
  }
  return names
}

export function columnsFor(items: ResultItem[], options: { maxAttributes?: number } = {}): Column[] {
  const max = options.maxAttributes ?? 6
  const columns: Column[] = [
    { key: 'rank', label: 'Rank', tupleColumn: 0, kind: 'rank' },
    { key: 'probability', label: 'Probability', tupleColumn: 0, kind: 'probability' },
  ]
  const attributes = attributeNames(items)
  const width = Math.max(0, ...items.map((item) => tupleValues(item).length))
  const multi = width > 1
  for (let column = 1; column <= width; column++) {
    const prefix = multi ? `${column}. ` : ''
    const isObject = items.some((item) => isTupleObject(tupleValues(item)[column - 1] ?? null))
    if (!isObject) {
      columns.push({ key: `${column}`, label: multi ? `Column ${column}` : 'Value', tupleColumn: column, kind: 'value' })
      continue
    }
    columns.push({ key: `${column}.id`, label: `${prefix}id`, tupleColumn: column, kind: 'id' })
    columns.push({ key: `${column}.class`, label: `${prefix}class`, tupleColumn: column, kind: 'class' })
    for (const attribute of (attributes.get(column) ?? []).slice(0, max)) {
      columns.push({ key: `${column}.${attribute}`, label: `${prefix}${attribute}`, tupleColumn: column, kind: 'attribute', attribute })
    }
  }
  return columns
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map(formatValue).join(', ')
  if (isTupleObject(value as TupleValue)) return (value as TupleObject).id
  return JSON.stringify(value)
}

export function toRows(items: ResultItem[], columns: Column[]): Row[] {
  return items.map((item) => {
    const values = tupleValues(item)
    const cells: Record<string, string> = {}
    for (const column of columns) {
      const value = values[column.tupleColumn - 1] ?? null
      switch (column.kind) {
        case 'rank':
          cells[column.key] = String(item.rank)
          break
        case 'probability':
          cells[column.key] = item.probability.toFixed(4)
          break
        case 'id':
          cells[column.key] = isTupleObject(value) ? value.id : ''
          break
        case 'class':
          cells[column.key] = isTupleObject(value) ? value.class.join(', ') : ''
          break
        case 'attribute':
          cells[column.key] = isTupleObject(value) ? formatValue(value.attributes?.[column.attribute ?? '']) : ''
          break
        case 'value':
          cells[column.key] = formatValue(value)
          break
      }
    }
    return { rank: item.rank, probability: item.probability, cells, item }
  })
}
