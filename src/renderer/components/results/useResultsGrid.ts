import { useVirtualizer } from '@tanstack/vue-virtual'
import { computed, nextTick, ref, watch, type Ref } from 'vue'
import type { ResultItem } from '../../../shared/responses'
import { cellText, cellValue, needsDetail, rowText, suggestedWidth, type Column } from '../../../shared/results/table'
import { useCopyFeedback } from '../../clipboard/copy-text'
import { MARKS } from '../../stores/query'

export const ROW_HEIGHT = 34
const MIN_WIDTH = 48
const ACTIONS_WIDTH = 84

export interface GridProps {
  items: ResultItem[]
  columns: Column[]
}

/**
 * The results grid's logic: only the rows in view are in the page (virtual
 * scrolling keeps 10,000 rows smooth), column widths the user drags or keys,
 * an active cell moved by the arrow keys, and copying a cell or a row.
 */
export function useResultsGrid(props: GridProps, openDetail: (item: ResultItem) => void) {
  const scroller: Ref<HTMLElement | null> = ref(null)
  const virtualizer = useVirtualizer(
    computed(() => ({
      count: props.items.length,
      getScrollElement: () => scroller.value,
      estimateSize: () => ROW_HEIGHT,
      overscan: 6,
      // The header row sits above the rows inside the same scroller.
      scrollPaddingStart: ROW_HEIGHT,
    })),
  )
  // Rows are keyed by their slot on screen (see ResultsGrid.vue), so scrolling patches text instead of building rows.
  // Each row in view is formatted once per render here, not once per binding in the template: scrolling stays cheap.
  const rows = computed(() =>
    virtualizer.value.getVirtualItems().map((virtual) => {
      const item = props.items[virtual.index]!
      return {
        index: virtual.index,
        start: virtual.start,
        item,
        cells: props.columns.map((column) => ({ text: cellText(item, column), opens: needsDetail(cellValue(item, column)) })),
      }
    }),
  )
  const totalHeight = computed(() => virtualizer.value.getTotalSize())

  // Column widths, by column key, kept while paging (columns of the same name keep their width).
  const widths = ref<Record<string, number>>({})
  // Suggested from the first rows of each new answer, so a column does not jump while rows are appended.
  const suggested = ref<Record<string, number>>({})
  const widthOf = (column: Column) => widths.value[column.key] ?? suggested.value[column.key] ?? suggestedWidth(props.items, column)
  const template = computed(() => [...props.columns.map((column) => `${widthOf(column)}px`), `${ACTIONS_WIDTH}px`].join(' '))
  const totalWidth = computed(() => props.columns.reduce((sum, column) => sum + widthOf(column), ACTIONS_WIDTH))
  function setWidth(column: Column, width: number): void {
    widths.value = { ...widths.value, [column.key]: Math.max(MIN_WIDTH, Math.round(width)) }
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
  function resizeByKey(column: Column, event: KeyboardEvent): void {
    const step = event.shiftKey ? 48 : 16
    if (event.key === 'ArrowLeft') setWidth(column, widthOf(column) - step)
    else if (event.key === 'ArrowRight') setWidth(column, widthOf(column) + step)
    else return
    event.preventDefault()
  }

  // The active cell: clicked or moved to with the arrow keys; Ctrl/Cmd+C copies it.
  const active = ref<{ row: number; column: number } | null>(null)
  const cellId = (row: number, column: number) => `cell-${row}-${column}`
  const activeId = computed(() => (active.value ? cellId(active.value.row, active.value.column) : undefined))
  const { message: copied, copy } = useCopyFeedback()

  function activate(row: number, column: number): void {
    active.value = { row, column }
  }

  const copyCell = (item: ResultItem, column: Column) => copy(cellText(item, column), `${column.label} of row ${item.rank}`)
  const copyRow = (item: ResultItem) => copy(rowText(item, props.columns), `row ${item.rank}`)

  function onKeydown(event: KeyboardEvent): void {
    if (props.items.length === 0) return
    const at = active.value ?? { row: 0, column: 0 }
    const lastRow = props.items.length - 1
    const lastColumn = props.columns.length - 1
    const page = Math.max(1, Math.floor((scroller.value?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1)
    let next = { ...at }
    const mod = event.ctrlKey || event.metaKey
    switch (event.key) {
      case 'ArrowDown': next.row = Math.min(lastRow, at.row + 1); break
      case 'ArrowUp': next.row = Math.max(0, at.row - 1); break
      case 'ArrowRight': next.column = Math.min(lastColumn, at.column + 1); break
      case 'ArrowLeft': next.column = Math.max(0, at.column - 1); break
      case 'PageDown': next.row = Math.min(lastRow, at.row + page); break
      case 'PageUp': next.row = Math.max(0, at.row - page); break
      case 'Home': next = mod ? { row: 0, column: 0 } : { ...at, column: 0 }; break
      case 'End': next = mod ? { row: lastRow, column: lastColumn } : { ...at, column: lastColumn }; break
      case 'Enter':
        event.preventDefault()
        openDetail(props.items[at.row]!)
        return
      case 'c':
      case 'C':
        if (!mod) return
        event.preventDefault()
        if (event.shiftKey) void copyRow(props.items[at.row]!)
        else void copyCell(props.items[at.row]!, props.columns[at.column]!)
        return
      default:
        return
    }
    event.preventDefault()
    active.value = next
    virtualizer.value.scrollToIndex(next.row, { align: 'auto' })
  }


  // A new answer (not rows appended) starts at the top; then the rows painted are marked for the benchmark.
  watch(
    () => props.items,
    async (items, before) => {
      const appended = before !== undefined && items.length > before.length && items[0] === before[0]
      if (!appended) {
        suggested.value = Object.fromEntries(props.columns.map((column) => [column.key, suggestedWidth(items, column)]))
        active.value = null
        if (scroller.value) scroller.value.scrollTop = 0
      }
      await nextTick()
      requestAnimationFrame(() => setTimeout(() => performance.mark(MARKS.painted), 0))
    },
    { immediate: true },
  )

  return {
    scroller, rows, totalHeight, template, totalWidth, widthOf, startResize, resizeByKey,
    active, activeId, cellId, activate, onKeydown, copyCell, copyRow, copied, rowHeight: ROW_HEIGHT,
  }
}
