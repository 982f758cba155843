import { afterEach, describe, expect, it } from 'vitest'
import { ExperimentRuns, MAX_RUNNING_EXPERIMENTS } from '../../src/main/experiments/experiment-runs'
import type { ExperimentProgress } from '../../src/main/experiments/run-experiment'
import { createLogger } from '../../src/main/logging/logger'
import { ExplorerError } from '../../src/shared/ipc/errors'
import type { ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import { refusal } from '../fixtures/failure-of'
import { experimentRecord } from '../fixtures/kept-evaluation'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/** Experiments of this launch: one at a time, in the background, their phase polled; a refusal, a fault and a cancel each said. */

/** A promise the test settles by hand. */
function held<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

describe('ExperimentRuns', () => {
  const tempDir = useTempDirs('qe-experiment-runs')
  // Every case's runs are closed after it, passed or not: a run still going is stopped.
  const opened: ExperimentRuns[] = []
  afterEach(async () => {
    for (const runs of opened.splice(0)) await runs.close()
  })
  const open = () => {
    const log = createLogger(tempDir())
    const runs = new ExperimentRuns(log)
    opened.push(runs)
    return { runs, log }
  }

  it('shows the phase the work reports, and the kept experiment once it is done', async () => {
    const { runs } = open()
    const gate = held<ExperimentRecord>()
    let report!: (progress: ExperimentProgress) => void
    const started = runs.start({
      runId: 'x',
      set: 'Big set',
      work: (_signal, onProgress) => ((report = onProgress), gate.promise),
    })
    expect(started).toMatchObject({ runId: 'x', state: 'running', set: 'Big set', experimentId: null, phase: 'starting', done: 0, total: 0 })
    report({ phase: 'B: Local', done: 3, total: 8 })
    expect(runs.status('x')).toMatchObject({ phase: 'B: Local', done: 3, total: 8 })
    expect(refusal(() => runs.start({ runId: 'second', set: 's', work: () => gate.promise })).code).toBe('validation')
    expect(MAX_RUNNING_EXPERIMENTS).toBe(1)
    gate.resolve(experimentRecord('x-record', ['a', 'b']))
    expect(await untilEnded(async () => runs.status('x'))).toMatchObject({ state: 'done', experimentId: 'x-record' })
  })

  it('a refusal of ours fails the experiment with its words, scrubbed', async () => {
    const { runs, log } = open()
    log.redact('sk-1')
    runs.start({ runId: 'x', set: 's', work: async () => Promise.reject(new ExplorerError('validation', 'The side sk-1 is gone.')) })
    expect(await untilEnded(async () => runs.status('x'))).toMatchObject({ state: 'failed', message: 'The side [redacted] is gone.' })
  })

  it('a fault is said as one, its details in the log', async () => {
    const { runs } = open()
    runs.start({ runId: 'x', set: 's', work: async () => Promise.reject(new TypeError('x is undefined')) })
    expect(await untilEnded(async () => runs.status('x'))).toMatchObject({ state: 'failed', message: 'The experiment failed inside the app: x is undefined' })
  })

  it('a cancel says what was kept and that no comparison was made', async () => {
    const { runs } = open()
    runs.start({
      runId: 'x',
      set: 's',
      work: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new ExplorerError('cancelled', 'The experiment was cancelled.')))),
    })
    await runs.cancel('x')
    expect(await untilEnded(async () => runs.status('x'))).toMatchObject({
      state: 'cancelled',
      message: 'Cancelled: the evaluations that finished are kept (the Evaluation view lists them); no comparison was made.',
    })
  })
})
