import { describe, expect, it } from 'vitest'
import { cancel, cancelHandle } from '../../src/main/http/cancel-handle'

describe('cancel handle', () => {
  it('cancel marks the handle cancelled and aborts the request in flight, if there is one', () => {
    const handle = cancelHandle()
    expect(handle).toEqual({ cancelled: false, abort: null })
    // No request in flight yet: marked, so the next one is not sent.
    cancel(handle)
    expect(handle.cancelled).toBe(true)
    const aborted: string[] = []
    const inFlight = cancelHandle()
    inFlight.abort = () => aborted.push('replay')
    cancel(inFlight)
    expect([inFlight.cancelled, aborted]).toEqual([true, ['replay']])
  })
})
