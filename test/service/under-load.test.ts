import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../../src/service'
import { openSession, PLACES, type Session } from './service-session'

/**
 * A legal query never fails because others are running (SERVICE-CONTRACT
 * "Under load"): queries wait their turn on the service's query thread,
 * and the wait is not counted by Node's request timeout, which ends once a
 * request has been read. The timeout here is far shorter than the default
 * 10 s and than the work queued ahead of the last query (each one sorts
 * every city twice), so a service whose queries held the loop that reads
 * requests would answer the later ones 408, or close their connections.
 */

const REQUEST_TIMEOUT_MS = 300
const QUERIES = 3

/** Legal and within the budget: every city sorted twice; `min` differs, so no two share a cached prefix. */
const sortedTwice = (min: number) => `${PLACES}/e/population/p/min/${min}/e/sort/p/by/name/e/sort/p/by/latitude/results?count=100`

describe('the service under load', () => {
  let s: Session
  beforeAll(async () => {
    s = await openSession({ requestTimeoutMs: REQUEST_TIMEOUT_MS })
  })
  afterAll(async () => s.service.close())

  it(`answers ${QUERIES} costly legal queries sent at once, each 200, none timed out or closed`, async () => {
    const token = await s.token()
    const answers = await Promise.all(
      Array.from({ length: QUERIES }, (_, i) =>
        s.get(sortedTwice(i + 1), token).then(
          (answer) => ({ status: answer.status, text: answer.text.slice(0, 200) }),
          (error: Error) => ({ status: 0, text: `${error.message}: ${String((error.cause as Error | undefined)?.message)}` }),
        ),
      ),
    )
    for (const answer of answers) expect(answer, answer.text).toMatchObject({ status: 200 })
  })

  it('refuses a bound on waiting queries that is not a whole number of 1 or more, naming it, before it starts anything', async () => {
    for (const maxWaitingQueries of [0, 2.5, Number.NaN]) {
      await expect(startService({ port: 0, maxWaitingQueries, log: () => undefined })).rejects.toThrow(`maxWaitingQueries must be a whole number, 1 or more, not ${maxWaitingQueries}`)
    }
  })
})
