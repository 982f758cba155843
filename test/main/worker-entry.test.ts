import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { startWorkerThread } from '../../src/main/jobs/worker-entry'
import { failureOf } from '../fixtures/failure-of'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * Main's worker threads started on their entry, built or from sources; a
 * build that is missing is said as the window says an error, naming what to do.
 */

describe('worker entry', () => {
  // realpath: the entry is found beside the caller's real path (the OS temp folder may be a link).
  const tempDirs = useTempDirs('qe-worker-entry')
  const tempDir = () => realpathSync(tempDirs())
  let worker: Worker | null = null
  afterEach(async () => {
    await worker?.terminate()
    worker = null
  })

  it('starts a thread on the built entry beside a built caller', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'echo-writer.js'), "require('node:worker_threads').parentPort.postMessage('ready')")
    worker = startWorkerThread({ caller: join(dir, 'index.js'), source: 'echo-writer.ts', built: 'echo-writer.js', what: 'The export' })
    expect(await new Promise((resolve, reject) => (worker!.once('message', resolve), worker!.once('error', reject)))).toBe('ready')
  })

  it('a missing build is an internal error that names the entry and says to build the app', async () => {
    const dir = tempDir()
    const error = await failureOf(Promise.resolve().then(() => startWorkerThread({ caller: join(dir, 'index.js'), source: 'x.ts', built: 'export-writer.js', what: 'The export' })))
    expect(error.toIpc()).toEqual({ code: 'internal', message: `The export could not start: export-writer.js is missing next to ${dir}; build the app (npm run build).` })
  })
})
