import { computed } from 'vue'
import type { ResultItem } from '../../../shared/responses'
import { cellShownText, cellValue, needsDetail, type Column } from '../../../shared/results/table'

/**
 * One grid row's cells, formatted once per item and columns. A row is its own
 * component so that moving the active cell re-renders only the rows it leaves
 * and enters, and so that its formatting is cached between renders.
 */
export function useGridRow(props: { item: ResultItem; columns: Column[]; offset: number | null }) {
  const cells = computed(() =>
    props.columns.map((column) => ({ text: cellShownText(props.item, column), opens: needsDetail(cellValue(props.item, column)) })),
  )
  // --p sizes the probability bar, which the cell's background draws: no extra elements per row.
  const style = computed(() => {
    const bar = `--p: ${Math.round(props.item.probability * 100)}%`
    return props.offset === null ? bar : `${bar}; position: absolute; top: ${props.offset}px`
  })
  return { cells, style }
}
