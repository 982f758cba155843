import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { startWorkerThread } from '../../src/node/worker-thread'

/** A thread started on a built entry (built-entry.ts finds it), as main's threads and the service's query thread are once built. */

describe('a worker thread', () => {
  let out: string
  let worker: Worker | null = null
  afterEach(async () => {
    await worker?.terminate()
    worker = null
    rmSync(out, { recursive: true, force: true })
  })

  it('starts a worker thread with its data, from a caller that is built JavaScript', async () => {
    out = mkdtempSync(join(tmpdir(), 'qe-built-entry-'))
    mkdirSync(join(out, 'chunks'))
    writeFileSync(join(out, 'echo-worker.js'), "const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage({ got: workerData })")
    worker = startWorkerThread({ caller: join(out, 'chunks', 'caller.js'), source: 'echo-worker.ts', built: ['echo-worker.js'], workerData: { budgetMs: 5000 } })
    const message = await new Promise((resolve, reject) => {
      worker!.once('message', resolve)
      worker!.once('error', reject)
    })
    expect(message).toEqual({ got: { budgetMs: 5000 } })
  })
})
