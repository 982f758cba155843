import type { z } from 'zod'
import { isChannel, type Channel } from '../../shared/ipc/channels'
import { contract, type IpcResult } from '../../shared/ipc/contract'
import { ExplorerError, type IpcError } from '../../shared/ipc/errors'
import type { Logger } from '../logging/logger'
import type { CallContext, HandlerTable } from './handler-table'

export type Dispatch = (channel: unknown, payload: unknown, context?: CallContext) => Promise<IpcResult<unknown>>

/**
 * The single entry of every IPC message, from either host: validates the
 * channel and payload against the contract, runs the handler, and turns every
 * failure into data. Nothing a renderer sends can throw out of here.
 */
/** String() throws on objects like {toString: false}; a name sent by a renderer may be anything. */
function describeChannel(channel: unknown): string {
  return typeof channel === 'string' ? `"${channel.slice(0, 80)}"` : `(a ${channel === null ? 'null' : typeof channel}, not a channel name)`
}

/** Checks size and schema; never throws, whatever the payload holds (hostile getters, proxies). */
function readRequest(channel: Channel, payload: unknown): IpcResult<unknown> {
  try {
    const tooBig = oversized(payload)
    if (tooBig) {
      return failure({ code: 'validation', message: `Invalid ${channel} request: ${tooBig.field}: ${tooBig.message}`, problems: [tooBig] })
    }
    const parsed = contract[channel].request.safeParse(payload)
    return parsed.success ? { ok: true, data: parsed.data } : failure(validationError(channel, parsed.error))
  } catch {
    return failure({ code: 'validation', message: `Invalid ${channel} request: it could not be read.` })
  }
}

export function createDispatcher(handlers: HandlerTable, log: Logger): Dispatch {
  return async (channel, payload, context = {}) => {
    if (!isChannel(channel)) {
      return failure({ code: 'validation', message: `Unknown channel ${describeChannel(channel)}.` })
    }
    const read = readRequest(channel, payload)
    if (!read.ok) return read
    try {
      const handler = handlers[channel] as (request: unknown, context: CallContext) => Promise<unknown>
      return { ok: true, data: await handler(read.data, context) }
    } catch (error) {
      if (error instanceof ExplorerError) {
        log.info(`${channel} failed: ${error.code}: ${error.message}`)
        const reply = error.toIpc()
        return failure({ ...reply, message: log.scrub(reply.message) })
      }
      log.error(`${channel} failed unexpectedly`, error)
      return failure({ code: 'internal', message: 'Something went wrong inside Query Explorer; the details are in the log.' })
    }
  }
}

/** Bounds every message has, whatever its channel: checked before the schema, so a huge message costs nothing more. */
export const MESSAGE_LIMITS = { stringLength: 10_000, items: 1_000, depth: 16, nodes: 20_000 } as const

function oversized(payload: unknown): { field: string; message: string } | null {
  let nodes = 0
  const walk = (value: unknown, path: string, depth: number): { field: string; message: string } | null => {
    const field = path || '(message)'
    if (++nodes > MESSAGE_LIMITS.nodes) return { field: '(message)', message: `more than ${MESSAGE_LIMITS.nodes} values in one message` }
    if (typeof value === 'string') {
      return value.length > MESSAGE_LIMITS.stringLength
        ? { field, message: `text longer than ${MESSAGE_LIMITS.stringLength.toLocaleString('en-US')} characters (${value.length.toLocaleString('en-US')})` }
        : null
    }
    if (typeof value !== 'object' || value === null) return null
    if (depth >= MESSAGE_LIMITS.depth) return { field, message: `nested deeper than ${MESSAGE_LIMITS.depth} levels` }
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value)
    if (entries.length > MESSAGE_LIMITS.items) return { field, message: `more than ${MESSAGE_LIMITS.items} entries` }
    for (const [key, item] of entries) {
      if (key.length > MESSAGE_LIMITS.stringLength) return { field, message: 'a field name is too long' }
      const found = walk(item, path ? `${path}.${key.slice(0, 80)}` : key.slice(0, 80), depth + 1)
      if (found) return found
    }
    return null
  }
  return walk(payload, '', 0)
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
