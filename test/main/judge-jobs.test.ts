import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/main/logging/logger'
import { JudgeRuns } from '../../src/main/judges/judge-jobs'
import { MAX_FAILURES_KEPT, recordFailure } from '../../src/main/judges/judge-set'
import { MAX_FAILURES_SHOWN } from '../../src/shared/ipc/judge-contract'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

describe('JudgeRuns', () => {
  const tempDir = useTempDirs('qe-judge-jobs')

  it('shows the first failures with the count of all, keeps them all for Retry failed, and runs one judging at a time', async () => {
    const runs = new JudgeRuns(createLogger(tempDir()))
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    runs.start({
      runId: 'a',
      set: 'Cities',
      judge: 'gpt',
      work: async (progress) => {
        for (let index = 0; index < 250; index++) progress.failures.push({ query: 'q1', item: `i${index}`, reason: 'off the scale' })
        await held
        return { state: 'done', message: '0 graded' }
      },
    })
    expect(() => runs.start({ runId: 'b', set: 'Cities', judge: 'gpt', work: async () => ({ state: 'done', message: null }) })).toThrow('A judging run is running already')
    release()
    const status = await untilEnded(async () => runs.status('a'))
    expect(status).toMatchObject({ state: 'done', message: '0 graded', failedCount: 250, set: 'Cities', judge: 'gpt' })
    expect(status.failures).toHaveLength(MAX_FAILURES_SHOWN)
    const kept = runs.failuresOf('a')
    expect([kept.set, kept.judge, kept.failures.length]).toEqual(['Cities', 'gpt', 250])
    expect(() => runs.failuresOf('nope')).toThrow('There is no judging run with the id "nope"')
    await runs.close()
  })

  it('keeps at most MAX_FAILURES_KEPT failures of a run, counting the rest: the status gives the true count, Retry failed the kept and how many were not', async () => {
    const runs = new JudgeRuns(createLogger(tempDir()))
    runs.start({
      runId: 'many',
      set: 'Cities',
      judge: 'gpt',
      work: async (progress) => {
        for (let index = 0; index < MAX_FAILURES_KEPT + 123; index++) recordFailure(progress, { query: 'q1', item: `i${index}`, reason: 'off the scale' })
        return { state: 'done', message: null }
      },
    })
    const status = await untilEnded(async () => runs.status('many'))
    expect(status.failedCount).toBe(MAX_FAILURES_KEPT + 123)
    expect(status.failures).toHaveLength(MAX_FAILURES_SHOWN)
    expect(status).not.toHaveProperty('failuresNotKept')
    const kept = runs.failuresOf('many')
    expect([kept.failures.length, kept.notKept]).toEqual([MAX_FAILURES_KEPT, 123])
    expect(kept.failures[0]).toEqual({ query: 'q1', item: 'i0', reason: 'off the scale' })
    await runs.close()
  })
})
