import { computed } from 'vue'
import type { ResultItem } from '../../../shared/responses'
import { cellShownText, cellValue, needsDetail, type Column, type GradeTone } from '../../../shared/results/table'
import { isJudgeGradeColumn } from './judge-columns'

/** A rating cell's colour, by its grade's place on the scale (grid.css). */
const TONE_CLASSES: Record<GradeTone, string> = { lowest: 'grade--lowest', low: 'grade--low', high: 'grade--high', top: 'grade--top' }

/**
 * One grid row's cells, formatted once per item and columns. A row is its own
 * component so that moving the active cell re-renders only the rows it leaves
 * and enters, and so that its formatting is cached between renders.
 */
export function useGridRow(props: { item: ResultItem; columns: Column[]; cellClasses: string[]; offset: number | null }) {
  const cells = computed(() =>
    props.columns.map((column, c) => {
      const classes = props.cellClasses[c] ?? ''
      // A rating cell adds its grade's colour to its column's classes: the one cell whose classes differ by row.
      if (column.rating) {
        const tone = column.rating.tone(props.item)
        // An LLM judge's grade carries the model's explanation as its title (the cell's description for screen readers).
        const title = isJudgeGradeColumn(column) ? column.explain(props.item) || undefined : undefined
        return { text: cellShownText(props.item, column), opens: false, classes: tone ? `${classes} ${TONE_CLASSES[tone]}` : classes, title }
      }
      return { text: cellShownText(props.item, column), opens: needsDetail(cellValue(props.item, column)), classes, title: undefined }
    }),
  )
  // --p sizes the probability bar, which the cell's background draws: no extra elements per row. Set on that
  // cell, not the row: a custom property is inherited, so on the row each new answer restyled all its cells.
  const bar = computed(() => `--p: ${Math.round(props.item.probability * 100)}%`)
  const style = computed(() => (props.offset === null ? undefined : `position: absolute; top: ${props.offset}px`))
  return { cells, style, bar }
}
