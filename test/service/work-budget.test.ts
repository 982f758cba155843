import { describe, expect, it } from 'vitest'
import { DEFAULT_QUERY_BUDGET_MS, UNLIMITED, WorkBudget } from '../../src/service/query/work-budget'
import { serviceRefusal } from '../fixtures/service-refusal'

/** A request's work bounded in time, over a clock the test moves: past the budget, the next check refuses it with a 503. */

const OVER = {
  status: 503,
  message:
    "Query over its time budget: answering it needs more than 20 ms of the service's work, the most one request may take. " +
    'Narrow it (a more specific search, a filter before a sort, fewer stacked sort or triples steps) and try again.',
}

describe('WorkBudget', () => {
  it('passes a check up to its deadline and refuses one past it, saying what to do', () => {
    let clock = 100
    const budget = new WorkBudget(20, () => clock)
    clock = 120
    budget.check()
    clock = 120.5
    expect(serviceRefusal(() => budget.check())).toEqual(OVER)
  })

  it('reads the clock once every 4096 ticks, not at every one', () => {
    let readings = 0
    let clock = 0
    const budget = new WorkBudget(20, () => (readings++, clock))
    clock = 1000
    for (let i = 1; i < 4096; i++) budget.tick()
    expect(readings).toBe(1)
    expect(serviceRefusal(() => budget.tick())).toEqual(OVER)
    expect(readings).toBe(2)
  })

  it('gives a comparator that compares as the one given and ticks once a comparison', () => {
    let readings = 0
    const budget = new WorkBudget(20, () => (readings++, 0))
    const compare = budget.comparator((a: number, b: number) => a - b)
    expect([3, 1, 2].sort(compare)).toEqual([1, 2, 3])
    const many = Array.from({ length: 4096 }, (_, i) => i)
    for (let i = 1; i < many.length; i++) compare(many[i - 1]!, many[i]!)
    // The constructor read the clock once; the comparisons (two in the sort, 4095 here) one more time at the 4096th.
    expect(readings).toBe(2)
  })

  it('never runs out when unlimited, and allows a request five seconds by default', () => {
    for (let i = 0; i < 10_000; i++) UNLIMITED.tick()
    UNLIMITED.check()
    expect(UNLIMITED.ms).toBe(Infinity)
    expect(DEFAULT_QUERY_BUDGET_MS).toBe(5000)
  })
})
