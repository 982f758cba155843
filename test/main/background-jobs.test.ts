import { describe, expect, it } from 'vitest'
import { BackgroundJobs, JobsOfKind, type BackgroundJob, type JobKind, type JobWork } from '../../src/main/jobs/background-jobs'
import { ManualClock } from '../fixtures/manual-clock'
import { manualTimers } from '../fixtures/manual-timers'
import { refusal } from '../fixtures/failure-of'

interface Count {
  done: number
}

const KEPT_MS = 60_000

/** A log that keeps its lines, and a scrubber that hides one secret, as the app's does. */
function recordingLog() {
  const lines: string[] = []
  return {
    lines,
    info: (message: string) => void lines.push(`info ${message}`),
    error: (message: string) => void lines.push(`error ${message}`),
    scrub: (text: string) => text.replaceAll('s3cret', '[redacted]'),
  }
}

type Status = ReturnType<BackgroundJob<Count>['statusFields']> & Count

function jobs(options: Partial<JobKind<Count, Status>> = {}, clock = new ManualClock()) {
  const log = recordingLog()
  const table = new BackgroundJobs<Count, Status>(
    {
      noun: 'evaluation',
      maxRunning: 2,
      keptMs: KEPT_MS,
      maxFinishedKept: 5,
      keptElsewhere: 'kept evaluations are in eval:list',
      status: (job) => ({ ...job.statusFields(), ...job.progress }),
      summary: (job) => `${job.progress.done} queries`,
      timers: manualTimers(clock),
      ...options,
    },
    log,
  )
  return { table, log, clock }
}

/** Work that counts a step each time it is released, until told to end or stopped by its signal. */
function steppedWork() {
  const waiting: (() => void)[] = []
  const step = () => waiting.shift()?.()
  const work = async (job: BackgroundJob<Count>) => {
    for (;;) {
      await new Promise<void>((resolve) => {
        if (job.signal.aborted) return resolve()
        waiting.push(resolve)
        job.signal.addEventListener('abort', () => resolve(), { once: true })
      })
      if (job.signal.aborted) {
        job.message = `Cancelled after ${job.progress.done} queries; they are kept.`
        return 'cancelled' as const
      }
      job.progress.done++
      if (job.progress.done === 3) return 'done' as const
    }
  }
  return { work, step }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

describe('BackgroundJobs', () => {
  it('answers a running status at once, shows the progress the work writes, and ends with the state the work says', async () => {
    const { table, log } = jobs()
    const { work, step } = steppedWork()
    expect(table.start('r1', { done: 0 }, work)).toMatchObject({ runId: 'r1', state: 'running', done: 0, message: null })
    await settle()
    step()
    await settle()
    expect(table.status('r1')).toMatchObject({ state: 'running', done: 1 })
    step()
    await settle()
    step()
    await settle()
    expect(table.status('r1')).toMatchObject({ state: 'done', done: 3 })
    expect(log.lines).toContain('info evaluation r1: done, 3 queries')
  })

  it('cancel replies once the work has stopped, with what it kept', async () => {
    const { table } = jobs()
    const { work, step } = steppedWork()
    table.start('r1', { done: 0 }, work)
    await settle()
    step()
    await settle()
    const cancelled = await table.cancel('r1')
    expect(cancelled).toMatchObject({ state: 'cancelled', done: 1, message: 'Cancelled after 1 queries; they are kept.' })
    // A second cancel of an ended job answers the same, and does nothing.
    expect(await table.cancel('r1')).toEqual(cancelled)
  })

  it('a throw in the work fails the job with its message scrubbed, and logs it', async () => {
    const { table, log } = jobs()
    table.start('r1', { done: 0 }, async () => {
      throw new Error('the server echoed Bearer s3cret')
    })
    await settle()
    const status = table.status('r1')
    expect(status.state).toBe('failed')
    expect(status.message).toBe('The evaluation failed inside the app: the server echoed Bearer [redacted]')
    expect(log.lines.join('\n')).not.toContain('s3cret')
  })

  it('refuses an id that still runs, one job over the bound, and an unknown id, each in words', async () => {
    const { table } = jobs()
    table.start('a', { done: 0 }, steppedWork().work)
    expect(refusal(() => table.start('a', { done: 0 }, steppedWork().work)).message).toBe('runId: an evaluation with the id "a" is running already.')
    table.start('b', { done: 0 }, steppedWork().work)
    const full = refusal(() => table.start('c', { done: 0 }, steppedWork().work))
    expect(full.code).toBe('validation')
    expect(full.message).toBe('2 evaluations are running already: wait for one to finish, or cancel one.')
    const unknown = refusal(() => table.status('nope'))
    expect(unknown.code).toBe('not_found')
    expect(unknown.message).toBe('There is no evaluation with the id "nope" (a finished evaluation is forgotten after 1 minutes; kept evaluations are in eval:list).')
    await table.close()
  })

  it('says "is running already" in the singular when one at a time is the bound', () => {
    const { table } = jobs({ noun: 'experiment', maxRunning: 1 })
    table.start('a', { done: 0 }, steppedWork().work)
    expect(refusal(() => table.start('b', { done: 0 }, steppedWork().work)).message).toBe('An experiment is running already: wait for it to finish, or cancel it.')
    return table.close()
  })

  it('forgets a finished job once its time is up', async () => {
    const { table, clock } = jobs()
    table.start('r1', { done: 0 }, async () => 'done')
    await settle()
    clock.advance(KEPT_MS - 1)
    await settle()
    expect(table.status('r1').state).toBe('done')
    clock.advance(1)
    await settle()
    expect(() => table.status('r1')).toThrow(/There is no evaluation/)
  })

  it('close stops every running job and waits for them', async () => {
    const { table } = jobs()
    const one = steppedWork()
    const two = steppedWork()
    const ended: string[] = []
    table.start('a', { done: 0 }, (job) => one.work(job).finally(() => ended.push('a')))
    table.start('b', { done: 0 }, (job) => two.work(job).finally(() => ended.push('b')))
    await settle()
    await table.close()
    expect(ended.sort()).toEqual(['a', 'b'])
  })
})

/** A kind as the app's are made (test runs, evaluations, experiments, exports): its own start, the rest JobsOfKind's. */
class CountingRuns extends JobsOfKind<Count, Status> {
  start(runId: string, work: JobWork<Count>): Status {
    return this.jobs.start(runId, { done: 0 }, work)
  }
}

describe('JobsOfKind', () => {
  const kind = (clock = new ManualClock()): JobKind<Count, Status> => ({
    noun: 'test run',
    maxRunning: 2,
    keptMs: KEPT_MS,
    maxFinishedKept: 5,
    status: (job) => ({ ...job.statusFields(), ...job.progress }),
    timers: manualTimers(clock),
  })

  it("answers a kind's status and cancel by id, in the kind's words for an id it does not hold", async () => {
    const runs = new CountingRuns(kind(), recordingLog())
    const { work, step } = steppedWork()
    expect(runs.start('r1', work)).toMatchObject({ runId: 'r1', state: 'running', done: 0 })
    await settle()
    step()
    await settle()
    expect(runs.status('r1')).toMatchObject({ state: 'running', done: 1 })
    expect(await runs.cancel('r1')).toMatchObject({ state: 'cancelled', done: 1, message: 'Cancelled after 1 queries; they are kept.' })
    expect(runs.status('r1')).toMatchObject({ state: 'cancelled', done: 1 })
    expect(refusal(() => runs.status('nope')).message).toBe('There is no test run with the id "nope" (a finished test run is forgotten after 1 minutes).')
    await expect(runs.cancel('nope')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('close stops every job of the kind, waits for them, and forgets them', async () => {
    const runs = new CountingRuns(kind(), recordingLog())
    const ended: string[] = []
    for (const id of ['a', 'b']) {
      const { work } = steppedWork()
      runs.start(id, (job) => work(job).finally(() => ended.push(id)))
    }
    await settle()
    await runs.close()
    expect(ended.sort()).toEqual(['a', 'b'])
    expect(refusal(() => runs.status('a')).code).toBe('not_found')
  })
})
