import { describe, expect, it } from 'vitest'
import { JobTable } from '../../src/main/jobs/job-table'
import { ManualClock } from '../fixtures/manual-clock'
import { manualTimers } from '../fixtures/manual-timers'
import { refusal } from '../fixtures/failure-of'

class Job {
  constructor(public running = true) {}
}

const KEPT_MS = 5 * 60_000

function table(clock = new ManualClock(), overrides: { maxRunning?: number; maxFinishedKept?: number } = {}) {
  return new JobTable<Job>({
    maxRunning: overrides.maxRunning ?? 2,
    keptMs: KEPT_MS,
    maxFinishedKept: overrides.maxFinishedKept ?? 3,
    notFound: (id, minutes) => `There is no job with id "${id}" (a finished job is forgotten after ${minutes} minutes).`,
    full: (max) => `${max} jobs are running already.`,
    timers: manualTimers(clock),
  })
}

/** Lets the clean-up that a clock's advance woke run. */
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve))

describe('JobTable', () => {
  it('holds jobs by id and refuses an unknown id with not_found, the id cut to 80 characters and the time in minutes', () => {
    const jobs = table()
    const job = new Job()
    jobs.add('a', job)
    expect(jobs.get('a')).toBe(job)
    expect(jobs.find('a')).toBe(job)
    expect(jobs.find('b')).toBeUndefined()
    const error = refusal(() => jobs.get('x'.repeat(200)))
    expect(error.code).toBe('not_found')
    expect(error.message).toBe(`There is no job with id "${'x'.repeat(80)}" (a finished job is forgotten after 5 minutes).`)
  })

  it('counts running jobs and refuses one more than the limit with validation', () => {
    const jobs = table()
    jobs.checkCapacity()
    jobs.add('a', new Job())
    jobs.add('b', new Job(false))
    expect(jobs.running).toBe(1)
    jobs.checkCapacity()
    jobs.add('c', new Job())
    expect(jobs.running).toBe(2)
    const error = refusal(() => jobs.checkCapacity())
    expect(error.code).toBe('validation')
    expect(error.message).toBe('2 jobs are running already.')
    jobs.get('a').running = false
    jobs.checkCapacity()
  })

  it('forgets a finished job once its time is up, not before', async () => {
    const clock = new ManualClock()
    const jobs = table(clock)
    const job = new Job()
    jobs.add('a', job)
    job.running = false
    jobs.finished('a', job)
    clock.advance(KEPT_MS - 1)
    await settle()
    expect(jobs.get('a')).toBe(job)
    clock.advance(1)
    await settle()
    expect(jobs.find('a')).toBeUndefined()
    expect(clock.pending).toBe(0)
  })

  it('does not forget a newer job that took the id of a finished one', async () => {
    const clock = new ManualClock()
    const jobs = table(clock)
    const first = new Job(false)
    jobs.add('a', first)
    jobs.finished('a', first)
    const second = new Job()
    jobs.add('a', second)
    clock.advance(KEPT_MS)
    await settle()
    expect(jobs.get('a')).toBe(second)
  })

  it('keeps at most so many finished jobs, the oldest going first, and never a running one', () => {
    const jobs = table(new ManualClock(), { maxRunning: 10, maxFinishedKept: 2 })
    const running = new Job()
    jobs.add('running', running)
    for (const id of ['f1', 'f2', 'f3']) {
      const job = new Job(false)
      jobs.add(id, job)
      jobs.finished(id, job)
    }
    expect(jobs.find('f1')).toBeUndefined()
    expect(jobs.find('f2')).toBeDefined()
    expect(jobs.find('f3')).toBeDefined()
    expect(jobs.find('running')).toBe(running)
  })

  it('on close cancels the clean-up, stops every job at once, waits for them, and forgets them', async () => {
    const clock = new ManualClock()
    const jobs = table(clock)
    const done = new Job(false)
    jobs.add('done', done)
    jobs.finished('done', done)
    jobs.add('running', new Job())
    expect(clock.pending).toBe(1)
    const stopped: string[] = []
    let release!: () => void
    const closing = jobs.close((job) => {
      stopped.push(job === done ? 'done' : 'running')
      return job === done ? Promise.resolve() : new Promise<void>((resolve) => (release = resolve))
    })
    // Both asked to stop before either is waited for.
    expect(stopped).toEqual(['done', 'running'])
    expect(clock.pending).toBe(0)
    let closed = false
    void closing.then(() => (closed = true))
    await settle()
    expect(closed).toBe(false)
    release()
    await closing
    expect(jobs.find('done')).toBeUndefined()
    expect(jobs.find('running')).toBeUndefined()
    expect(jobs.running).toBe(0)
  })
})
