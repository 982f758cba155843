import { describe, expect, it } from 'vitest'
import { Deadlines, pastDeadline } from '../../src/main/http/deadlines'

/**
 * Whole-request deadlines on one timer. The cases hold only deadlines
 * already past (they fire on the timer's next turn) and ones an hour away
 * (never, here): what fires is known by the order of events, no clock raced.
 */

const HOUR = 3_600_000

describe('deadlines', () => {
  it('expires every deadline that is past, in one sweep, and none that is not, nor one deleted', async () => {
    const deadlines = new Deadlines()
    const expired: string[] = []
    const now = performance.now()
    deadlines.add(now + HOUR, () => expired.push('in an hour'))
    const deleted = deadlines.add(now - 2, () => expired.push('deleted'))
    deadlines.delete(deleted)
    deadlines.add(now - 1, () => expired.push('past a'))
    await new Promise<void>((resolve) => deadlines.add(now - 1, () => (expired.push('past b'), resolve())))
    expect(expired).toEqual(['past a', 'past b'])
    deadlines.clear()
  })

  it('after clear, nothing added before fires; what is added after does', async () => {
    const deadlines = new Deadlines()
    const expired: string[] = []
    deadlines.add(performance.now() - 1, () => expired.push('cleared'))
    deadlines.clear()
    await new Promise<void>((resolve) => deadlines.add(performance.now() - 1, () => (expired.push('after'), resolve())))
    expect(expired).toEqual(['after'])
  })

  it('a deadline earlier than the one the timer waits for is still kept', async () => {
    const deadlines = new Deadlines()
    deadlines.add(performance.now() + HOUR, () => undefined)
    // The timer is moved to the earlier one: it fires now, not in an hour.
    await new Promise<void>((resolve) => deadlines.add(performance.now() - 1, resolve))
    deadlines.clear()
  })

  it('says a request ran past its deadline, naming the host and the seconds, and where to change it', () => {
    expect(pastDeadline(new URL('https://query.example.com:8443/q'), 2_500).toIpc()).toEqual({
      code: 'timeout',
      message: "query.example.com:8443 did not complete the answer within 2.5 s (the request's deadline; it can be changed in the connection's advanced settings).",
    })
  })
})
