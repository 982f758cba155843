import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { ManualClock } from '../fixtures/manual-clock'
import { fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * Following a background job (src/renderer/composables/useFollowedJob.ts),
 * the one way for every kind: started under a new id, its status asked every
 * interval on an injected clock until it ends, cancelled, and a status that
 * can no longer be read ends the following with the reason.
 */

const fake = fakeBridge()
installBridge(fake)
const { useFollowedJob } = await import('../../src/renderer/composables/useFollowedJob')

const status = (state: 'running' | 'done' | 'failed' | 'cancelled', rows = 0, message: string | null = null) =>
  ({ runId: 'r1', state, durationMs: 1, message, rows, fileName: 'rows.csv', downloadUrl: null }) as never

/** A followed export on a clock moved by hand; every status it shows and how it ended. */
function followed(told?: ('failed' | 'cancelled')[]) {
  fake.clear()
  fake.hold('export:status')
  const clock = new ManualClock()
  const error = ref<string | null>(null)
  const seen: number[] = []
  const ends: unknown[] = []
  const job = useFollowedJob('export', {
    intervalMs: 250, error, told, clock, unreadable: "The export's progress could not be read",
    onStatus: (next) => seen.push(next.rows), ended: (final) => ends.push(final && final.state),
  })
  return { job, clock, error, seen, ends }
}

/** Moves the clock one interval on and lets the question go out. */
async function tick(clock: ManualClock, ms = 250) {
  clock.advance(ms)
  await settle()
}

describe('useFollowedJob', () => {
  it('asks for the status every interval until it has ended, passing each on', async () => {
    const { job, clock, seen, ends } = followed()
    const ids: string[] = []
    expect(await job.begin(async (runId) => (ids.push(runId), status('running', 0)))).toMatchObject({ state: 'running' })
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(job.running.value).toBe(true)
    await tick(clock, 249)
    expect(fake.held).toHaveLength(0)
    await tick(clock, 1)
    expect(fake.held.map((call) => call.request)).toEqual([{ runId: 'r1' }])
    fake.held.shift()!.answer(status('running', 40))
    await settle()
    await tick(clock)
    fake.held.shift()!.answer(status('done', 90))
    await settle()
    expect(seen).toEqual([0, 40, 90])
    expect(ends).toEqual(['done'])
    expect(job.running.value).toBe(false)
    await tick(clock, 1_000)
    expect(fake.held).toHaveLength(0)
  })

  it('tells the message of an ended state it was asked to tell', async () => {
    const { job, error } = followed(['failed'])
    await job.begin(async () => status('failed', 3, 'The disk is full.'))
    await settle()
    expect(error.value).toBe('The disk is full.')
  })

  it('stops following when the status cannot be read, shows the job as no longer running, and says why', async () => {
    const { job, clock, error, ends } = followed()
    await job.begin(async () => status('running'))
    await tick(clock)
    fake.held.shift()!.refuse({ code: 'not_found', message: 'There is no export with the id "r1".' })
    await settle()
    expect(error.value).toBe(`The export's progress could not be read: There is no export with the id "r1".`)
    expect(job.run.value).toMatchObject({ state: 'cancelled' })
    expect(ends).toEqual([])
  })

  it('cancels the job shown and stops asking; a refusal goes to the caller, and a failed start to the error', async () => {
    const { job, clock, error, ends } = followed()
    await job.begin(async () => status('running'))
    fake.answers['export:cancel'] = status('cancelled', 7)
    await job.cancel()
    expect(fake.calls.filter((call) => call.channel === 'export:cancel').map((call) => call.request)).toEqual([{ runId: 'r1' }])
    expect(job.run.value).toMatchObject({ state: 'cancelled', rows: 7 })
    // The stopped status ends the following; the poll it replaced ends with nothing.
    expect(ends).toEqual(['cancelled', null])
    await tick(clock, 1_000)
    expect(fake.held).toHaveLength(0)

    const refused: string[] = []
    await job.begin(async () => status('running'))
    fake.hold('export:cancel')
    const cancelling = job.cancel((message) => refused.push(message))
    await settle()
    fake.held.find((call) => call.channel === 'export:cancel')!.refuse({ code: 'internal', message: 'Main is busy.' })
    await cancelling
    expect(refused).toEqual(['Main is busy.'])
    job.clear()

    expect(await job.begin(async () => Promise.reject(new Error('x')), 'The export did not start')).toBeNull()
    expect(error.value).toBe('The export did not start: Something unexpected went wrong in the window; try again.')
  })
})
