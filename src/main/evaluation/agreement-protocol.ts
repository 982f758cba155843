import type { RatedJudgment } from '../../shared/relevance/query-set'
import type { SetAgreementInput } from '../../shared/relevance/set-agreement'

/**
 * What main sends the agreement thread (it answers the figures, answerOnce). A set's
 * judgments cross as columns, not objects: structured cloning 200,000
 * judgment objects costs main ~200 ms, more than the figures themselves
 * (~75 ms); as typed arrays (moved, not copied) and one string of the items
 * it costs ~20 ms to make.
 */

export interface JudgmentColumns {
  /** Each judgment's query, rater and grade: an index into `queries` and `raters`, the grade itself. */
  query: Int32Array
  rater: Int32Array
  grade: Uint8Array
  /** The items, one after another, and each one's length (an item id may hold any character). */
  items: string
  itemLengths: Int32Array
  queries: string[]
  raters: string[]
}

export interface AgreementRequest extends Omit<SetAgreementInput, 'judgments'> {
  judgments: JudgmentColumns
}

/** A set's judgments as columns, for the thread. */
export function judgmentColumns(judgments: readonly RatedJudgment[]): JudgmentColumns {
  const count = judgments.length
  const columns = { query: new Int32Array(count), rater: new Int32Array(count), grade: new Uint8Array(count), itemLengths: new Int32Array(count) }
  const queryIndex = new Map<string, number>()
  const raterIndex = new Map<string, number>()
  const items: string[] = new Array<string>(count)
  for (let at = 0; at < count; at++) {
    const judgment = judgments[at]!
    let query = queryIndex.get(judgment.query)
    if (query === undefined) queryIndex.set(judgment.query, (query = queryIndex.size))
    let rater = raterIndex.get(judgment.rater)
    if (rater === undefined) raterIndex.set(judgment.rater, (rater = raterIndex.size))
    columns.query[at] = query
    columns.rater[at] = rater
    columns.grade[at] = judgment.grade
    columns.itemLengths[at] = judgment.item.length
    items[at] = judgment.item
  }
  return { ...columns, items: items.join(''), queries: [...queryIndex.keys()], raters: [...raterIndex.keys()] }
}

/** The judgments the columns hold, in their order. */
export function judgmentsOfColumns(columns: JudgmentColumns): RatedJudgment[] {
  const judgments: RatedJudgment[] = new Array<RatedJudgment>(columns.query.length)
  let offset = 0
  for (let at = 0; at < columns.query.length; at++) {
    const length = columns.itemLengths[at]!
    judgments[at] = { query: columns.queries[columns.query[at]!]!, item: columns.items.slice(offset, offset + length), rater: columns.raters[columns.rater[at]!]!, grade: columns.grade[at]! }
    offset += length
  }
  return judgments
}

/** The buffers a request moves to the thread rather than copies. */
export function transferables(columns: JudgmentColumns): ArrayBuffer[] {
  return [columns.query.buffer, columns.rater.buffer, columns.grade.buffer, columns.itemLengths.buffer] as ArrayBuffer[]
}
