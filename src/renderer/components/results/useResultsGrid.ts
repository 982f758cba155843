import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/vue-virtual'
import { computed, nextTick, onMounted, ref, watch, type Ref } from 'vue'
import type { ResultItem } from '../../../shared/responses'
import { cellText, gradeKeysText, rowText, suggestedWidth, type Column } from '../../../shared/results/table'
import { useCopyFeedback } from '../../clipboard/copy-text'
import { useColumnSheet } from './useColumnSheet'
import { gridCovered } from './grid-cover'
import { labelColumn, pinnedColumns, pinnedOffsets, scrollLeftToRevealLabel, scrollLeftToShow, scrollLeftWithoutSliver } from './pinned-columns'
import { MARKS } from '../../perf/run-marks'

const ROW_HEIGHT = 34
const MIN_WIDTH = 48
const ACTIONS_WIDTH = 64
/** The header row's index in `active.row`: the data rows count from 0. */
const HEADER = -1
/** How long a line of the status (a copy, a rating) stays. */
const STATUS_MS = 1800

export interface GridProps {
  items: ResultItem[]
  columns: Column[]
  /** A marked row to bring into view and make active (a disagreement's Open); null or absent: none. */
  reveal?: number | null
}

/**
 * The results grid's logic: only the rows in view are in the page (virtual
 * scrolling keeps 10,000 rows smooth), column widths the user drags or keys,
 * Rank and the row's label pinned on the left, an active cell moved by the
 * arrow keys (the grid's one Tab stop), and copying a cell or a row. With a
 * Rating column (a query of a set being rated), a digit key grades the
 * active row's item and Backspace or Delete clears its grade: `rate` passes
 * them on, the Rating column shows them once the store has them.
 */
export function useResultsGrid(
  props: GridProps,
  openDetail: (item: ResultItem) => void,
  rate: (item: ResultItem, grade: number | null) => void = () => {},
  revealed: () => void = () => {},
) {
  const scroller: Ref<HTMLElement | null> = ref(null)
  // The active cell: clicked or moved to with the arrow keys; it holds the keyboard focus, and Ctrl/Cmd+C copies it.
  // Row HEADER is the header row, whose cells resize their column with Alt+arrows.
  const active = ref<{ row: number; column: number } | null>(null)
  const virtualizer = useVirtualizer(
    computed(() => {
      const activeRow = active.value?.row
      return {
        count: props.items.length,
        getScrollElement: () => scroller.value,
        estimateSize: () => ROW_HEIGHT,
        overscan: 3,
        // The header row sits above the rows inside the same scroller.
        scrollPaddingStart: ROW_HEIGHT,
        // The active row stays in the page while scrolled away, so the focus it holds is not lost.
        rangeExtractor: (range: Range) => withActiveRow(defaultRangeExtractor(range), activeRow !== undefined && activeRow >= 0 ? activeRow : undefined),
      }
    }),
  )
  // The rows in view sit in one window moved by a single transform, so scrolling changes one style, not one per row.
  // The template keys rows by their place in the window: scrolling patches text in rows already built, which
  // allocates far less than building rows (and so brings fewer garbage-collection pauses). The active row is
  // keyed on its own, so its element, which holds the focus, stays with it; kept while scrolled away, it is
  // placed on its own too (`offset`).
  const rows = computed(() => {
    const virtualItems = virtualizer.value.getVirtualItems()
    const detached = virtualItems.map((_, at) => isDetached(virtualItems, at))
    const run = Math.max(0, detached.indexOf(false))
    const windowStart = virtualItems[run]?.start ?? 0
    return {
      windowStart,
      // Whether the window's first child is an odd row, for the stripes of the cells that cover the body's
      // (CSS counts children): one class on the window, rather than a style on every row that changes as it scrolls.
      firstOdd: (((virtualItems[run]?.index ?? 0) - run) & 1) === 1,
      list: virtualItems.map((virtual, at) => ({
        index: virtual.index,
        item: props.items[virtual.index]!,
        offset: detached[at] ? virtual.start - windowStart : null,
      })),
    }
  })
  const totalHeight = computed(() => virtualizer.value.getTotalSize())
  // Rank and the label column stick to the left while the grid scrolls sideways, so a row stays recognisable;
  // while rating, the Rating column between them, so the grade stays beside the name it is given to.
  const pinnedIndexes = computed(() => withRatingPinned(props.columns, pinnedColumns(props.columns)))
  const ratingAt = computed(() => props.columns.findIndex((column) => column.kind === 'rating'))
  // The same for every row: worked out once per set of columns, not once per row (nor per width).
  const cellClasses = computed(() => {
    const pinned = pinnedIndexes.value
    return props.columns.map((column, c) => {
      const pin = !pinned.includes(c) ? '' : c === pinned.at(-1) ? ' grid__cell--pinned grid__cell--pin-edge' : ' grid__cell--pinned'
      return `grid__cell col-${column.kind}${pin}`
    })
  })

  // Column widths, by column key, kept while paging (columns of the same name keep their width).
  const chosenWidths = ref<Record<string, number>>({})
  // Suggested from the first rows of each new answer, so a column does not jump while rows are appended.
  const suggested = ref<Record<string, number>>({})
  const widthOf = (column: Column) => chosenWidths.value[column.key] ?? suggested.value[column.key] ?? suggestedWidth(props.items, column)
  const columnWidths = computed(() => props.columns.map(widthOf))
  const totalWidth = computed(() => columnWidths.value.reduce((sum, width) => sum + width, ACTIONS_WIDTH))
  const pinned = computed(() => pinnedOffsets(pinnedIndexes.value, columnWidths.value))
  // Pinned cells stick only while the grid is scrolled sideways: a sticky cell is a compositor layer of its own,
  // one per row, and at the left edge they would stick to where they already are.
  const sideways = ref(false)
  function onScroll(): void {
    const now = (scroller.value?.scrollLeft ?? 0) > 0
    if (now !== sideways.value) sideways.value = now
  }
  // Where a sideways scroll comes to rest with a sliver of a column beside the pinned ones, it goes on until that
  // column is under them: a few pixels of a header between Rank and name read as a glitch, not as a column.
  function onScrollEnd(): void {
    const element = scroller.value
    if (!element || element.scrollLeft === 0) return
    const left = scrollLeftWithoutSliver(element.scrollLeft, columnWidths.value, pinned.value, element.scrollWidth - element.clientWidth, active.value?.column)
    if (left !== null) element.scrollLeft = left
  }
  // The side panel opened over the grid's right part: bring the row's label next to Rank, where it sticks in view.
  // Also when a new answer's columns arrive while it lies there.
  watch(
    [gridCovered, pinned],
    ([covered]) => {
      const element = scroller.value
      if (!covered || !element) return
      const left = scrollLeftToRevealLabel(pinned.value, columnWidths.value, element.scrollLeft)
      if (left !== null) element.scrollLeft = left
    },
    { flush: 'post' },
  )
  function setWidth(column: Column, width: number): void {
    chosenWidths.value = { ...chosenWidths.value, [column.key]: Math.max(MIN_WIDTH, Math.round(width)) }
  }
  function startResize(column: Column, event: PointerEvent): void {
    const handle = event.currentTarget as HTMLElement
    const startX = event.clientX
    const startWidth = widthOf(column)
    handle.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => setWidth(column, startWidth + e.clientX - startX)
    const up = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', up)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', up)
  }
  function resizeByKey(column: Column, key: 'ArrowLeft' | 'ArrowRight', wide: boolean): void {
    const step = wide ? 48 : 16
    setWidth(column, widthOf(column) + (key === 'ArrowLeft' ? -step : step))
  }

  // The status line says what the keys did: a copy (its own timer) or a rating.
  const { message: status, copy } = useCopyFeedback(STATUS_MS)
  let statusTimer: ReturnType<typeof setTimeout> | null = null
  function announce(text: string): void {
    status.value = text
    if (statusTimer) clearTimeout(statusTimer)
    statusTimer = setTimeout(() => {
      if (status.value === text) status.value = ''
    }, STATUS_MS)
  }

  /** Makes a cell the active one and gives it the keyboard focus (a screen reader then reads it, with its row and column). */
  async function activate(row: number, column: number): Promise<void> {
    active.value = { row, column }
    await nextTick()
    focusActiveCell()
  }

  function focusActiveCell(): void {
    const cell = scroller.value?.querySelector('.grid__cell--active')
    if (cell instanceof HTMLElement && document.activeElement !== cell) cell.focus({ preventScroll: true })
  }

  /** Scrolls sideways, when needed, so the active column shows between the pinned columns and the row actions. */
  function revealColumn(column: number): void {
    const element = scroller.value
    if (!element) return
    const view = { scrollLeft: element.scrollLeft, clientWidth: element.clientWidth, actionsWidth: ACTIONS_WIDTH }
    const left = scrollLeftToShow(column, columnWidths.value, pinned.value, view)
    if (left !== null) element.scrollLeft = left
  }

  // When the active row leaves the run of rows in view, Vue moves its element, and the move takes the focus away
  // (with a focusout): give it back. A focusout outside such an update (a click elsewhere, even on nothing
  // focusable, or the window losing the focus) means the user moved on, and the grid must not take it back.
  let activeCellFocused = false
  let updatingRows = false
  function onFocusin(event: FocusEvent): void {
    activeCellFocused = (event.target as HTMLElement).classList.contains('grid__cell--active')
    // Tabbing in before any cell was active lands on the grid itself (its Tab stop until then): move on to the
    // first cell in view, so the Tab stop is a cell as with any other grid. A click is left to pick its own cell.
    const grid = scroller.value
    if (event.target === grid && grid && !active.value && props.items.length > 0 && grid.matches(':focus-visible')) {
      void activate(virtualizer.value.range?.startIndex ?? 0, 0)
    }
  }
  function onFocusout(): void {
    if (!updatingRows) activeCellFocused = false
  }
  watch(rows, () => void (updatingRows = true), { flush: 'pre' })
  watch(rows, () => {
    updatingRows = false
    if (activeCellFocused) focusActiveCell()
  }, { flush: 'post' })

  /** The row index and column a click inside the body landed on; column is -1 outside the data cells. */
  function hit(target: HTMLElement): { row: number; column: number; item: ResultItem } | null {
    const rowElement = target.closest('[aria-rowindex]')
    const row = rowElement ? Number(rowElement.getAttribute('aria-rowindex')) - 2 : -1
    const item = props.items[row]
    if (!rowElement || !item) return null
    const cell = target.closest('[role=gridcell]')
    const column = cell ? Array.prototype.indexOf.call(rowElement.children, cell) : -1
    return { row, column: column < props.columns.length ? column : -1, item }
  }

  // One listener for all rows, reading the row from aria-rowindex and the action from data-action, instead of one per cell and button.
  function onBodyClick(event: MouseEvent): void {
    const target = event.target as HTMLElement
    const at = hit(target)
    if (!at) return
    const action = target.closest<HTMLElement>('[data-action]')?.dataset.action
    if (action === 'detail') openDetail(at.item)
    else if (action === 'copy-row') void copyRow(at.item)
    else if (action === 'copy-cell' && at.column >= 0) void copyCell(at.item, props.columns[at.column]!)
    else if (at.column >= 0) {
      // A cell clicked where it is cut off (under the pinned columns, or at the row actions) comes out whole.
      revealColumn(at.column)
      void activate(at.row, at.column)
    }
  }

  function onBodyDblclick(event: MouseEvent): void {
    const at = hit(event.target as HTMLElement)
    if (at) openDetail(at.item)
  }

  // A tooltip only where text is cut off, set when the pointer arrives, rather than a title on every cell.
  function onBodyPointerover(event: PointerEvent): void {
    const text = (event.target as HTMLElement).closest<HTMLElement>('.grid__text, .grid__body [role=gridcell]')
    if (!text || text.classList.contains('grid__cell--tools') || text.classList.contains('grid__cell--actions')) return
    if (text.scrollWidth > text.clientWidth) text.title = text.textContent ?? ''
    else text.removeAttribute('title')
  }

  const copyCell = (item: ResultItem, column: Column) => copy(cellText(item, column), `${column.label} of row ${item.rank}`)
  const copyRow = (item: ResultItem) => copy(rowText(item, props.columns), `row ${item.rank}`)

  function onKeydown(event: KeyboardEvent): void {
    // Buttons in the grid (reached by pointer, not by Tab) answer their own keys.
    if (props.items.length === 0 || (event.target as HTMLElement).closest('button')) return
    const at = active.value ?? { row: 0, column: 0 }
    const lastRow = props.items.length - 1
    const lastColumn = props.columns.length - 1
    const page = Math.max(1, Math.floor((scroller.value?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1)
    let next = { ...at }
    const mod = event.ctrlKey || event.metaKey
    const item = props.items[at.row]
    if (!mod && !event.altKey && rateByKey(event)) return
    if (event.altKey) {
      // Alt+Left/Right resizes the active cell's column (announced on the headers); the browser's Back is not wanted here.
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
      event.preventDefault()
      resizeByKey(props.columns[at.column]!, event.key, event.shiftKey)
      return
    }
    switch (event.key) {
      case 'ArrowDown': next.row = Math.min(lastRow, at.row + 1); break
      case 'ArrowUp': next.row = Math.max(HEADER, at.row - 1); break
      case 'ArrowRight': next.column = Math.min(lastColumn, at.column + 1); break
      case 'ArrowLeft': next.column = Math.max(0, at.column - 1); break
      case 'PageDown': next.row = Math.min(lastRow, at.row + page); break
      case 'PageUp': next.row = Math.max(Math.min(0, at.row), at.row - page); break
      case 'Home': next = mod ? { row: 0, column: 0 } : { ...at, column: 0 }; break
      case 'End': next = mod ? { row: lastRow, column: lastColumn } : { ...at, column: lastColumn }; break
      case 'Enter':
        if (!item) return
        event.preventDefault()
        openDetail(item)
        return
      case 'c':
      case 'C':
        if (!mod || !item) return
        event.preventDefault()
        if (event.shiftKey) void copyRow(item)
        else void copyCell(item, props.columns[at.column]!)
        return
      default:
        return
    }
    event.preventDefault()
    if (next.row !== HEADER) virtualizer.value.scrollToIndex(next.row, { align: 'auto' })
    revealColumn(next.column)
    void activate(next.row, next.column)
  }


  /**
   * A rating key on the active row: a digit that is a grade of the scale
   * rates its item, Backspace or Delete clears its grade. False when the key
   * is not one of these (a digit off the scale does nothing), so it goes on
   * to the grid's other keys.
   */
  function rateByKey(event: KeyboardEvent): boolean {
    const rating = props.columns[ratingAt.value]?.rating
    const row = active.value?.row ?? HEADER
    const item = props.items[row]
    if (!rating || !item) return false
    if (event.key === 'Backspace' || event.key === 'Delete') {
      event.preventDefault()
      // Nothing to clear: no call to main, whose document would be marked unsaved for nothing.
      if (rating.text(item) === '') {
        announce(`Row ${item.rank} has no rating`)
        return true
      }
      rate(item, null)
      announce(`Cleared the rating of row ${item.rank}`)
      return true
    }
    const step = /^[0-9]$/.test(event.key) ? rating.steps.find((each) => each.grade === Number(event.key)) : undefined
    if (!step) return false
    event.preventDefault()
    rate(item, step.grade)
    announce(`Rated row ${item.rank}: ${step.text}`)
    return true
  }

  /** The rating keys, for the grid's keyboard help; '' while nothing is rated. */
  const ratingKeys = computed(() => {
    const rating = props.columns[ratingAt.value]?.rating
    if (!rating) return ''
    const digits = gradeKeysText(rating.steps)
    return `${digits ? `${digits} rate the active row's result (${rating.steps.map((step) => step.text).join(', ')}); ` : ''}Backspace or Delete clears its rating.`
  })

  // A new answer (not rows appended) starts at the top; then the rows painted are marked for the benchmark.
  watch(
    () => props.items,
    async (items, before) => {
      const appended = before !== undefined && items.length > before.length && items[0] === before[0]
      if (!appended) {
        suggested.value = Object.fromEntries(props.columns.map((column) => [column.key, suggestedWidth(items, column)]))
        active.value = null
        // Written only when scrolled: setting it lays the page out there and then, before the new rows are in.
        if (scroller.value && virtualizer.value.scrollOffset !== 0) scroller.value.scrollTop = 0
      }
      await nextTick()
      requestAnimationFrame(() => setTimeout(() => performance.mark(MARKS.painted), 0))
    },
    { immediate: true },
  )

  /**
   * The marked row comes into view, in the middle, and becomes the active row (its label cell, which a screen
   * reader reads by name), holding the focus: a digit rates it at once. After the new answer's reset above
   * (a watcher run after rendering), and on a grid mounted with its first rows.
   */
  function revealMarked(row: number | null | undefined): void {
    if (row === null || row === undefined || !props.items[row] || !scroller.value) return
    virtualizer.value.scrollToIndex(row, { align: 'center' })
    const column = Math.max(0, labelColumn(props.columns))
    revealColumn(column)
    void activate(row, column)
    revealed()
  }
  watch(() => props.reveal, revealMarked, { flush: 'post' })
  onMounted(() => revealMarked(props.reveal))

  return {
    scroller, rows, cellClasses, totalHeight, startResize, sideways, onScroll, onScrollEnd, active,
    activateHeader(column: number): void {
      revealColumn(column)
      void activate(HEADER, column)
    },
    // The active header cell's column, else null.
    activeHeader: computed(() => (active.value?.row === HEADER ? active.value.column : null)),
    onKeydown, onFocusin, onFocusout, onBodyClick, onBodyDblclick, onBodyPointerover, status, ratingKeys, gridScope: useColumnSheet(columnWidths, pinned),
    // Sizes the stylesheet reads, so they are written once, here.
    sizes: computed(() => ({ '--row-width': `${totalWidth.value}px`, '--row-height': `${ROW_HEIGHT}px`, '--actions-width': `${ACTIONS_WIDTH}px` })),
  }
}

/** The pinned columns with the Rating column, if any, right after Rank: left to right, as their offsets add up. */
function withRatingPinned(columns: readonly Column[], pinned: number[]): number[] {
  const rating = columns.findIndex((column) => column.kind === 'rating')
  if (rating < 0) return pinned
  const at = pinned.indexOf(columns.findIndex((column) => column.kind === 'rank')) + 1
  return [...pinned.slice(0, at), rating, ...pinned.slice(at)]
}

/** Whether the rendered row at `at` stands apart from the run of rows in view (only the active row can). */
function isDetached(virtualItems: { index: number }[], at: number): boolean {
  if (virtualItems.length < 2) return false
  const index = virtualItems[at]!.index
  return virtualItems[at - 1]?.index !== index - 1 && virtualItems[at + 1]?.index !== index + 1
}

/** The indexes to render: those in view, plus the active row wherever it is (kept sorted for the virtualizer). */
function withActiveRow(indexes: number[], activeRow: number | undefined): number[] {
  if (activeRow === undefined || indexes.includes(activeRow)) return indexes
  return [...indexes, activeRow].sort((a, b) => a - b)
}
