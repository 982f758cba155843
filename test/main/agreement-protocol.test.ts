import { describe, expect, it } from 'vitest'
import { judgmentColumns, judgmentsOfColumns, transferables } from '../../src/main/evaluation/agreement-protocol'

describe('judgment columns', () => {
  it('give back the judgments they were made of, item ids of any character included', () => {
    const judgments = [
      { query: 'q1', item: 'a', rater: 'ana', grade: 3 },
      { query: 'q2', item: 'b\u0000c', rater: 'ben', grade: 0 },
      { query: 'q1', item: 'é 🙂 , "x"', rater: 'ana', grade: 100 },
      { query: 'q1', item: 'a', rater: 'ben', grade: 1 },
    ]
    const columns = judgmentColumns(judgments)
    expect(columns.queries).toEqual(['q1', 'q2'])
    expect(columns.raters).toEqual(['ana', 'ben'])
    // Through a structured clone, as to the thread, the buffers moved.
    const crossed = structuredClone(columns, { transfer: transferables(columns) })
    expect(judgmentsOfColumns(crossed)).toEqual(judgments)
    expect(judgmentsOfColumns(judgmentColumns([]))).toEqual([])
  })
})
