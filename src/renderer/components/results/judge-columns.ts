import { itemKey } from '../../../shared/compare/item-key'
import { isJudgeRater } from '../../../shared/relevance/llm-judge'
import type { QuerySet, ScaleStep } from '../../../shared/relevance/query-set'
import type { ResultItem } from '../../../shared/responses'
import { gradeTone, type Column } from '../../../shared/results/table'

/** An LLM judge's grades as a read-only column beside the person's Rating: the model's explanation is each cell's title. */
export interface JudgeGradeColumn extends Column {
  /** The judge's explanation of its grade of the item ('' when none). */
  explain: (item: ResultItem) => string
}

export function isJudgeGradeColumn(column: Column): column is JudgeGradeColumn {
  return typeof (column as Partial<JudgeGradeColumn>).explain === 'function'
}

/**
 * The order of the judges' columns, the same for every query of the set:
 * the workspace's judges in their list's order, then any other `llm:` rater
 * (a judge since removed, a model's grades imported) as the whole set first
 * names it. (By first judgment of each query the columns would swap places
 * from one query to the next.)
 */
function raterOrder(set: QuerySet, judgeRaters: readonly string[]): Map<string, number> {
  const order = new Map<string, number>()
  for (const rater of judgeRaters) if (!order.has(rater)) order.set(rater, order.size)
  for (const judgment of set.judgments) if (isJudgeRater(judgment.rater) && !order.has(judgment.rater)) order.set(judgment.rater, order.size)
  return order
}

/**
 * One column per LLM judge (rater `llm:…`) that graded an item of the query
 * rated, in the set's order (raterOrder: the workspace's judges' raters,
 * `judgeRaters`, first): headed by the rater's name
 * (marked "demo" for the demo's stand-in), each cell the grade in words with
 * its scale's colour. Of kind rating, so an export leaves it out as it
 * leaves the person's Rating out; the rating keys rate the person's column,
 * which comes first.
 */
export function judgeColumns(
  set: QuerySet | null,
  queryId: string | null,
  scale: readonly ScaleStep[],
  demoRaters: ReadonlySet<string> = new Set(),
  judgeRaters: readonly string[] = [],
): JudgeGradeColumn[] {
  if (!set || queryId === null) return []
  const byRater = new Map<string, Map<string, { grade: number; explanation: string }>>()
  for (const judgment of set.judgments) {
    if (judgment.query !== queryId || !isJudgeRater(judgment.rater)) continue
    let grades = byRater.get(judgment.rater)
    if (!grades) byRater.set(judgment.rater, (grades = new Map()))
    grades.set(judgment.item, { grade: judgment.grade, explanation: judgment.explanation ?? '' })
  }
  const steps = scale.map((step) => ({ grade: step.grade, text: `${step.grade} ${step.label}` }))
  const words = new Map(steps.map((step) => [step.grade, step.text]))
  const order = raterOrder(set, judgeRaters)
  const rank = (rater: string) => order.get(rater) ?? order.size
  return [...byRater].sort(([a], [b]) => rank(a) - rank(b)).map(([rater, grades]) => {
    const of = (item: ResultItem) => grades.get(itemKey(item))
    return {
      key: `judge:${rater}`,
      label: demoRaters.has(rater) ? `${rater} (demo)` : rater,
      tupleColumn: 0,
      kind: 'rating',
      rating: {
        text: (item) => {
          const found = of(item)
          return found ? (words.get(found.grade) ?? String(found.grade)) : ''
        },
        tone: (item) => {
          const found = of(item)
          return found ? gradeTone(found.grade, scale) : null
        },
        steps,
      },
      explain: (item) => of(item)?.explanation ?? '',
    }
  })
}

/** The columns with the judges' after the person's Rating column (they come only while a query is rated). */
export function withJudgeColumns(columns: Column[], judges: readonly Column[]): Column[] {
  if (judges.length === 0) return columns
  const at = columns.findIndex((column) => column.kind === 'rating')
  if (at < 0) return columns
  return [...columns.slice(0, at + 1), ...judges, ...columns.slice(at + 1)]
}
