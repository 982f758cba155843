import { parentPort } from 'node:worker_threads'
import { ExplorerError } from '../../shared/ipc/errors'
import { createWriter } from './format-writer'
import type { FormatWriter } from './writer-interface'
import type { CrossingError, WriterReply, WriterRequest } from './writer-protocol'

/**
 * A worker thread that writes exports (electron.vite.config.ts:
 * `export-writer`): it owns one export's format writer at a time, takes its
 * pages in order and answers each request once done. A page that takes long
 * to read holds this thread only.
 */

const port = parentPort
if (!port) throw new Error('writer-worker runs as a worker thread')
// Finish is not cancelled through this signal: the main side stops the whole thread instead.
const never = new AbortController().signal
let writer: FormatWriter | null = null

function crossing(error: unknown): CrossingError {
  if (error instanceof ExplorerError) return { explorer: true, code: error.code, message: error.message, extra: error.extra }
  const code = (error as { code?: unknown }).code
  return { explorer: false, code: typeof code === 'string' ? code : undefined, message: error instanceof Error ? error.message : String(error) }
}

async function serve(request: WriterRequest): Promise<number> {
  if (request.op === 'open') {
    writer = await createWriter(request.format, request.paths, request.rowsWanted, request.columns)
    return 0
  }
  const current = writer
  if (!current) throw new Error(`"${request.op}" before "open"`)
  if (request.op === 'page') return current.addPage(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength), request.asked)
  // The export is over either way: the thread is free for the next.
  writer = null
  if (request.op === 'finish') await current.finish(never)
  else await current.abandon()
  return 0
}

port.on('message', async (request: WriterRequest) => {
  const current = writer
  let reply: WriterReply
  try {
    const kept = await serve(request)
    reply = { id: request.id, ok: true, kept, bytes: (writer ?? current)?.bytes ?? 0 }
  } catch (error) {
    reply = { id: request.id, ok: false, error: crossing(error), bytes: (writer ?? current)?.bytes ?? 0 }
  }
  port.postMessage(reply)
})
