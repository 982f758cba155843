import { describe, expect, it } from 'vitest'
import { latestCall } from '../../src/renderer/stores/latest-call'

describe('latestCall', () => {
  it('lets only the newest call land', () => {
    const calls = latestCall()
    const first = calls.start()
    expect(first()).toBe(true)
    const second = calls.start()
    expect(first()).toBe(false)
    expect(second()).toBe(true)
  })

  it('supersede makes every call so far out of date, and a new one counts again', () => {
    const calls = latestCall()
    const first = calls.start()
    calls.supersede()
    expect(first()).toBe(false)
    expect(calls.start()()).toBe(true)
  })

  it('keeps each helper to itself', () => {
    const a = latestCall()
    const b = latestCall()
    const mine = a.start()
    b.start()
    b.supersede()
    expect(mine()).toBe(true)
  })
})
