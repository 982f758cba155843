import type { z } from 'zod'
import { isChannel } from '../../shared/ipc/channels'
import { contract, type IpcResult } from '../../shared/ipc/contract'
import { ExplorerError, type IpcError } from '../../shared/ipc/errors'
import type { Logger } from '../logging/logger'
import type { HandlerTable } from './handler-table'

export type Dispatch = (channel: unknown, payload: unknown) => Promise<IpcResult<unknown>>

/**
 * The single entry of every IPC message, from either host: validates the
 * channel and payload against the contract, runs the handler, and turns every
 * failure into data. Nothing a renderer sends can throw out of here.
 */
export function createDispatcher(handlers: HandlerTable, log: Logger): Dispatch {
  return async (channel, payload) => {
    if (!isChannel(channel)) {
      return failure({ code: 'validation', message: `Unknown channel "${String(channel).slice(0, 80)}".` })
    }
    const parsed = contract[channel].request.safeParse(payload)
    if (!parsed.success) {
      return failure(validationError(channel, parsed.error))
    }
    try {
      const handler = handlers[channel] as (request: unknown) => Promise<unknown>
      return { ok: true, data: await handler(parsed.data) }
    } catch (error) {
      if (error instanceof ExplorerError) {
        log.info(`${channel} failed: ${error.code}: ${error.message}`)
        return failure(error.toIpc())
      }
      log.error(`${channel} failed unexpectedly`, error)
      return failure({ code: 'internal', message: 'Something went wrong inside Query Explorer; the details are in the log.' })
    }
  }
}

function failure(error: IpcError): IpcResult<never> {
  return { ok: false, error }
}

function validationError(channel: string, error: z.ZodError): IpcError {
  const problems = error.issues.slice(0, 20).map((issue) => ({
    field: issue.path.map(String).join('.') || '(message)',
    message: issue.message.slice(0, 300),
  }))
  return {
    code: 'validation',
    message: `Invalid ${channel} request: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
    problems,
  }
}
