import type { ExportFormat } from '../../shared/ipc/contract'
import type { WriterPaths } from './writer-interface'

/**
 * The messages between an export job (main process) and the worker thread
 * that reads its pages and writes its file: the parsing of a server's answer
 * and the writing of up to 100,000 rows never run on the main event loop.
 * A thread serves one export at a time, from `open` to `finish` or `abandon`.
 */

export type WriterRequest =
  | { id: number; op: 'open'; format: ExportFormat; paths: WriterPaths; rowsWanted: number; columns: string[] | null }
  | { id: number; op: 'page'; body: Uint8Array; asked: number }
  | { id: number; op: 'finish' }
  | { id: number; op: 'abandon' }

/** An error as it crosses the thread boundary: an ExplorerError keeps its code and extra, a system error its code. */
export interface CrossingError {
  explorer: boolean
  code?: string | undefined
  message: string
  extra?: Record<string, unknown> | undefined
}

export type WriterReply = { id: number; ok: true; kept: number; bytes: number } | { id: number; ok: false; error: CrossingError; bytes: number }
