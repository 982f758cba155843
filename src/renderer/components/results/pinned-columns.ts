import type { Column } from '../../../shared/results/table'

/** Attributes that name an object, in order of preference: the one a reader finds a row by. */
const LABEL_ATTRIBUTES = ['name', 'label', 'title']

/**
 * The column that names a row, kept in view beside Rank while the grid
 * scrolls sideways: the first tuple column's name (or label, title), else its
 * id, else its value. -1 when there is none.
 */
export function labelColumn(columns: readonly Column[]): number {
  const first = columns.find((column) => column.tupleColumn > 0)?.tupleColumn
  if (first === undefined) return -1
  const own = (test: (column: Column) => boolean) => columns.findIndex((column) => column.tupleColumn === first && test(column))
  for (const name of LABEL_ATTRIBUTES) {
    const at = own((column) => column.kind === 'attribute' && column.attribute === name)
    if (at >= 0) return at
  }
  return own((column) => column.kind === 'id' || column.kind === 'value')
}

/** The columns that stay in view on the left, left to right: Rank, then the label column. */
export function pinnedColumns(columns: readonly Column[]): number[] {
  const rank = columns.findIndex((column) => column.kind === 'rank')
  const label = labelColumn(columns)
  return [rank, label].filter((c, at, all) => c >= 0 && all.indexOf(c) === at)
}

/** Each pinned column's distance from the grid's left edge once it sticks there, by column index. */
export function pinnedOffsets(pinned: readonly number[], widths: readonly number[]): Map<number, number> {
  const offsets = new Map<number, number>()
  let left = 0
  for (const c of pinned) {
    offsets.set(c, left)
    left += widths[c] ?? 0
  }
  return offsets
}

/**
 * The horizontal scroll position that shows column `c` whole between the
 * pinned columns on the left and the row actions on the right, or null when
 * it is in view already. Counts the pinned label column as stuck, which may
 * scroll a little further than needed but never leaves the column hidden.
 */
export function scrollLeftToShow(
  c: number,
  widths: readonly number[],
  pinned: ReadonlyMap<number, number>,
  view: { scrollLeft: number; clientWidth: number; actionsWidth: number },
): number | null {
  if (pinned.has(c)) return null
  let pinnedWidth = 0
  for (const column of pinned.keys()) pinnedWidth += widths[column] ?? 0
  const left = widths.slice(0, c).reduce((sum, width) => sum + width, 0)
  const right = left + (widths[c] ?? 0)
  if (left < view.scrollLeft + pinnedWidth) return Math.max(0, left - pinnedWidth)
  if (right > view.scrollLeft + view.clientWidth - view.actionsWidth) return right - view.clientWidth + view.actionsWidth
  return null
}

/**
 * The sideways scroll that brings the label column (the last pinned one) next
 * to Rank, where it then sticks, so the row's label shows in a grid whose
 * right part is covered; null when it already shows there or nothing can move.
 */
export function scrollLeftToRevealLabel(pinned: ReadonlyMap<number, number>, widths: readonly number[], scrollLeft: number): number | null {
  const label = [...pinned.keys()].at(-1)
  if (label === undefined || pinned.size < 2) return null
  const natural = widths.slice(0, label).reduce((sum, width) => sum + width, 0)
  const wanted = natural - (pinned.get(label) ?? 0)
  return wanted > scrollLeft ? wanted : null
}

/** Less of a column than this, beside the pinned ones, is a sliver: a letter or two of its header, cut digits. */
export const SLIVER_PX = 24

/**
 * Where a sideways scroll left at `scrollLeft` should come to rest so no
 * sliver of a column shows beside the pinned ones (a few pixels of a header
 * between Rank and name, read as a glitch): the scroll goes on until that
 * column is wholly under them. A column shown by `SLIVER_PX` or more stays
 * as the user left it, and so does the `keep` column (the active one, wider
 * than the room left for it). Null when there is no sliver, or the scroll
 * cannot go that far (`maxScrollLeft`).
 */
export function scrollLeftWithoutSliver(
  scrollLeft: number,
  widths: readonly number[],
  pinned: ReadonlyMap<number, number>,
  maxScrollLeft: number,
  keep = -1,
): number | null {
  const starts: number[] = []
  widths.reduce((left, width, c) => ((starts[c] = left), left + width), 0)
  /** Where the columns passing under the pinned ones begin to show, in the grid's own coordinates, at scroll `at`. */
  const edge = (at: number) => {
    let covered = 0
    for (const [c, offset] of pinned) {
      // A pinned column sticks once the scroll brings its natural place to its offset.
      if (at >= (starts[c] ?? 0) - offset) covered = Math.max(covered, offset + (widths[c] ?? 0))
    }
    return at + covered
  }
  let at = scrollLeft
  // Hiding one sliver can stick the next pinned column, which brings its own edge: a few rounds at most.
  for (let round = 0; round < widths.length; round++) {
    const x = edge(at)
    const cut = widths.findIndex((width, c) => !pinned.has(c) && starts[c]! < x && starts[c]! + width > x)
    if (cut < 0 || cut === keep) break
    const shown = starts[cut]! + widths[cut]! - x
    if (shown >= SLIVER_PX) break
    at += shown
  }
  if (at === scrollLeft || at > maxScrollLeft) return null
  return at
}
