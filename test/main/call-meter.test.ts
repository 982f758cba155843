import { describe, expect, it } from 'vitest'
import { CallMeter } from '../../src/main/judges/call-meter'

/** The budget of a judging run: calls reserved one request at a time, tokens as answers report them. */

describe('CallMeter', () => {
  it('gives out exactly the budget\'s calls, then refuses and says the budget stopped it', () => {
    const meter = new CallMeter({ calls: 3 })
    expect([meter.take(), meter.take(), meter.take()]).toEqual([true, true, true])
    expect([meter.calls, meter.stoppedByBudget]).toEqual([3, false])
    expect([meter.take(), meter.take()]).toEqual([false, false])
    expect([meter.calls, meter.stoppedByBudget]).toEqual([3, true])
  })

  it('a token budget refuses the next call once input and output together reach it', () => {
    const meter = new CallMeter({ calls: 100, tokens: 1_000 })
    expect(meter.take()).toBe(true)
    meter.addUsage({ input: 900, output: 99 })
    expect(meter.take()).toBe(true)
    meter.addUsage({ input: 0, output: 1 })
    expect([meter.take(), meter.stoppedByBudget, meter.calls, meter.tokens]).toEqual([false, true, 2, { input: 900, output: 100 }])
  })

  it('each request reserves its estimated tokens: calls at once never start past the token budget', () => {
    const meter = new CallMeter({ calls: 100, tokens: 1_000 })
    // Four calls at once, each estimated at 400: the third would pass 1,000 before any has answered.
    expect([meter.take(400), meter.take(400), meter.take(400)]).toEqual([true, true, false])
    expect([meter.calls, meter.reserved, meter.stoppedByBudget]).toEqual([2, 800, true])
  })

  it('an answer\'s reported usage replaces its estimate; one that reports none keeps its estimate counted', () => {
    const meter = new CallMeter({ calls: 100, tokens: 1_000 })
    expect(meter.take(400)).toBe(true)
    expect(meter.take(400)).toBe(true)
    meter.addUsage({ input: 150, output: 50 }, 400)
    expect([meter.tokens, meter.reserved, meter.counted]).toEqual([{ input: 150, output: 50 }, 400, 600])
    // 600 counted: one more of 400 fits exactly, then nothing does.
    expect([meter.take(400), meter.take(1)]).toEqual([true, false])
  })

  it('a request estimated at more than the whole token budget is never sent', () => {
    const meter = new CallMeter({ calls: 10, tokens: 100 })
    expect([meter.take(101), meter.calls, meter.stoppedByBudget]).toEqual([false, 0, true])
  })

  it('without a token budget, usage is counted and never stops it', () => {
    const meter = new CallMeter({ calls: 2 })
    meter.take()
    meter.addUsage({ input: 5_000_000, output: 1 })
    expect([meter.take(), meter.tokens]).toEqual([true, { input: 5_000_000, output: 1 }])
  })

  it('a budget of 0 calls sends nothing', () => {
    const meter = new CallMeter({ calls: 0 })
    expect([meter.take(), meter.calls, meter.stoppedByBudget]).toEqual([false, 0, true])
  })

  it('counts a provider\'s odd usage figures as nothing rather than spoiling the sum', () => {
    const meter = new CallMeter({ calls: 10, tokens: 100 })
    meter.addUsage({ input: Number.NaN, output: -5 })
    meter.addUsage({ input: Number.POSITIVE_INFINITY, output: 2.6 })
    expect(meter.tokens).toEqual({ input: 0, output: 3 })
  })

  it('a budget that is not a whole number of at least 0 is refused, naming the field', () => {
    expect(() => new CallMeter({ calls: -1 })).toThrow('Budget calls: must be a whole number of at least 0 (got -1).')
    expect(() => new CallMeter({ calls: 1.5 })).toThrow('Budget calls: must be a whole number of at least 0 (got 1.5).')
    expect(() => new CallMeter({ calls: 5, tokens: Number.NaN })).toThrow('Budget tokens: must be a whole number of at least 0 (got NaN).')
  })
})
