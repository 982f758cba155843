import { MAX_LOADED_ROWS } from './paging'
import { itemKey } from '../compare/item-key'
import type { ScaleStep } from '../relevance/query-set'
import { visibleControls } from '../text/visible-controls'
import type { ResultItem, TupleObject, TupleValue } from '../responses'

/**
 * Turns result items into a table: rank, probability, then per tuple column
 * either the object's id, class and attributes, or the simple value. Works on
 * both tuple forms (array, or object keyed by 1-based column number when
 * homogeneousArrays is on).
 */

export interface Column {
  key: string
  /** The header as shown: an attribute name's bidi controls are visible escapes (`attribute` keeps it as sent). */
  label: string
  /** Tuple column (1-based) this column comes from; 0 for rank, probability and rating. */
  tupleColumn: number
  kind: 'rank' | 'probability' | 'id' | 'class' | 'attribute' | 'value' | 'rating'
  attribute?: string
  /** The Rating column's grades (kind 'rating' only): what the user gave each item for the query rated. */
  rating?: RatingLookup
}

/** Where a grade sits on its scale, for its colour: the lowest, the lower half, the upper half, the top. */
export type GradeTone = 'lowest' | 'low' | 'high' | 'top'

/**
 * The grades the Rating column shows, read per item. It is not a response
 * value: the grid shows it and "Copy row" copies it (it is what the user
 * sees), but an export, which main writes from the service's answer, leaves it out.
 */
export interface RatingLookup {
  /** The item's grade in words ("3 Perfect"); '' when unrated. */
  text(item: ResultItem): string
  /** The item's grade's place on the scale; null when unrated. */
  tone(item: ResultItem): GradeTone | null
  /** The scale, lowest first, each grade in words: what the digit keys give. */
  steps: readonly { grade: number; text: string }[]
}

/** A grade's place on the scale: the first step is the lowest, the last the top, the others by which half they are in. */
export function gradeTone(grade: number, scale: readonly ScaleStep[]): GradeTone | null {
  const at = scale.findIndex((step) => step.grade === grade)
  if (at < 0) return null
  const last = scale.length - 1
  if (at === 0) return 'lowest'
  if (at === last) return 'top'
  return at / last < 0.5 ? 'low' : 'high'
}

/**
 * The grades a single digit key gives (0–9), and how to say them: "0–3" for
 * a run, else "0, 2, 5"; '' when the scale has none.
 */
export function gradeKeysText(scale: readonly { grade: number }[]): string {
  const digits = scale.map((step) => step.grade).filter((grade) => grade <= 9)
  if (digits.length === 0) return ''
  const run = digits.every((grade, at) => at === 0 || grade === digits[at - 1]! + 1)
  return run && digits.length > 1 ? `${digits[0]}–${digits.at(-1)}` : digits.join(', ')
}

/** The Rating column for one query's grades (by item key, as compare/item-key.ts keys items). */
export function ratingColumn(grades: ReadonlyMap<string, number>, scale: readonly ScaleStep[]): Column {
  const steps = scale.map((step) => ({ grade: step.grade, text: `${step.grade} ${step.label}` }))
  const words = new Map(steps.map((step) => [step.grade, step.text]))
  const gradeOf = (item: ResultItem) => grades.get(itemKey(item))
  return {
    key: 'rating',
    label: 'Rating',
    tupleColumn: 0,
    kind: 'rating',
    rating: {
      text: (item) => {
        const grade = gradeOf(item)
        return grade === undefined ? '' : (words.get(grade) ?? String(grade))
      },
      tone: (item) => {
        const grade = gradeOf(item)
        return grade === undefined ? null : gradeTone(grade, scale)
      },
      steps,
    },
  }
}

/** The columns with the Rating column right after Rank (first when there is no Rank). */
export function withRatingColumn(columns: Column[], rating: Column | null): Column[] {
  if (!rating) return columns
  const at = columns.findIndex((column) => column.kind === 'rank') + 1
  return [...columns.slice(0, at), rating, ...columns.slice(at)]
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

export interface ColumnOptions {
  /** Attributes shown by default per tuple column when the user has not chosen (the first ones seen). */
  maxAttributes?: number
  /** The attribute columns the user chose, by key (`1.population`); others are left out. */
  chosen?: ReadonlySet<string> | null
}

export function columnsFor(items: ResultItem[], options: ColumnOptions = {}): Column[] {
  const max = options.maxAttributes ?? 6
  const chosen = options.chosen ?? null
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
    const names = attributes.get(column) ?? []
    for (const attribute of chosen ? names.filter((name) => chosen.has(`${column}.${name}`)) : names.slice(0, max)) {
      const label = `${prefix}${visibleControls(attribute)}`
      columns.push({ key: `${column}.${attribute}`, label, tupleColumn: column, kind: 'attribute', attribute })
    }
  }
  return columns
}

/**
 * Whether two lists of columns are the same columns (key, header, source,
 * rating), so a caller can keep the list it has: rows appended by Load more
 * rarely bring a column, and a list kept as it was re-renders no row.
 */
export function sameColumns(a: readonly Column[], b: readonly Column[]): boolean {
  return (
    a.length === b.length &&
    a.every((column, i) => {
      const other = b[i]!
      return (
        column.key === other.key &&
        column.label === other.label &&
        column.kind === other.kind &&
        column.tupleColumn === other.tupleColumn &&
        column.attribute === other.attribute &&
        column.rating === other.rating
      )
    })
  )
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map(formatValue).join(', ')
  if (isTupleObject(value as TupleValue)) return (value as TupleObject).id
  return JSON.stringify(value)
}

/** Every attribute column that could be shown, per tuple column, for the column chooser. */
export function attributeColumns(items: ResultItem[]): { key: string; label: string }[] {
  const names = attributeNames(items)
  const multi = Math.max(0, ...items.map((item) => tupleValues(item).length)) > 1
  const out: { key: string; label: string }[] = []
  for (const [column, list] of [...names.entries()].sort((a, b) => a[0] - b[0])) {
    for (const name of list) {
      const shown = visibleControls(name)
      out.push({ key: `${column}.${name}`, label: multi ? `${column}. ${shown}` : shown })
    }
  }
  return out
}

/** The value under a column, as the response holds it (an object stays an object). */
export function cellValue(item: ResultItem, column: Column): unknown {
  if (column.kind === 'rank') return item.rank
  if (column.kind === 'probability') return item.probability
  if (column.kind === 'rating') return column.rating?.text(item) ?? ''
  const value = tupleValues(item)[column.tupleColumn - 1] ?? null
  switch (column.kind) {
    case 'id':
      return isTupleObject(value) ? value.id : null
    case 'class':
      return isTupleObject(value) ? value.class : null
    case 'attribute':
      return isTupleObject(value) ? value.attributes?.[column.attribute ?? ''] : null
    default:
      return value
  }
}

/** A cell's text as sent: what copying a cell or a row puts on the clipboard. */
export function cellText(item: ResultItem, column: Column): string {
  if (column.kind === 'probability') return item.probability.toFixed(4)
  return formatValue(cellValue(item, column))
}

/**
 * A cell's text as the grid shows it: bidi controls as visible escapes, so an
 * override in a name or id cannot make it read as another (copying keeps
 * cellText).
 */
export function cellShownText(item: ResultItem, column: Column): string {
  return visibleControls(cellText(item, column))
}

/** Longer than this, a cell shows its start and the row detail shows the rest. */
export const LONG_TEXT = 80

/** True when a cell cannot show its value whole: a nested object (level > 1), a list of objects, or long text. */
export function needsDetail(value: unknown): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'string') return value.length > LONG_TEXT
  if (Array.isArray(value)) return value.some((entry) => typeof entry === 'object' && entry !== null) || formatValue(value).length > LONG_TEXT
  return typeof value === 'object'
}

/** A row as tab-separated text, in the order of the columns shown: what "Copy row" puts on the clipboard. */
export function rowText(item: ResultItem, columns: readonly Column[]): string {
  return columns.map((column) => cellText(item, column).replace(/[\t\n\r]+/g, ' ')).join('\t')
}

/**
 * A starting width for a column, in pixels, from the longest text among the
 * first rows (about 7 px a character at the grid's font size), so names are
 * not cut while a class or a country code takes little room. The user's
 * own width, once dragged, wins.
 */
export function suggestedWidth(items: readonly ResultItem[], column: Column, sample = 50): number {
  // Wide enough for the last rank "Load more" can reach from this answer's first row.
  if (column.kind === 'rank') return Math.max(64, String((items[0]?.rank ?? 1) + MAX_LOADED_ROWS).length * 9 + 24)
  if (column.kind === 'probability') return 132
  // From the scale, not the rows: the column keeps its width while grades are given (in bold: 9 px a character).
  if (column.kind === 'rating') {
    const widest = Math.max(column.label.length + 2, ...(column.rating?.steps ?? []).map((step) => visibleControls(step.text).length))
    return Math.min(240, Math.max(72, Math.round(widest * 9 + 24)))
  }
  let longest = column.label.length + 2
  for (const item of items.slice(0, sample)) longest = Math.max(longest, cellShownText(item, column).length)
  return Math.min(320, Math.max(72, Math.round(longest * 7.2 + 24)))
}
