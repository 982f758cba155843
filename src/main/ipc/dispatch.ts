import type { z } from 'zod'
import { isChannel, type Channel } from '../../shared/ipc/channels'
import { contract, type IpcResult } from '../../shared/ipc/contract'
import { SET_FORM_MESSAGE } from '../../shared/ipc/relevance-contract'
import { ExplorerError, type IpcError } from '../../shared/ipc/errors'
import type { Logger } from '../logging/logger'
import type { CallContext, HandlerTable } from './handler-table'

export type Dispatch = (channel: unknown, payload: unknown, context?: CallContext) => Promise<IpcResult<unknown>>

/** String() throws on objects like {toString: false}; a name sent by a renderer may be anything. */
function describeChannel(channel: unknown): string {
  return typeof channel === 'string' ? `"${channel.slice(0, 80)}"` : `(a ${channel === null ? 'null' : typeof channel}, not a channel name)`
}

/** Checks size and schema; never throws, whatever the payload holds (hostile getters, proxies). */
function readRequest(channel: Channel, payload: unknown): IpcResult<unknown> {
  try {
    const tooBig = oversized(channel, payload)
    if (tooBig) {
      const problem = { field: tooBig.field, message: tooBig.message }
      return failure({ code: 'validation', message: tooBig.refusal ?? `Invalid ${channel} request: ${problem.field}: ${problem.message}`, problems: [problem] })
    }
    const parsed = contract[channel].request.safeParse(payload)
    return parsed.success ? { ok: true, data: parsed.data } : failure(validationError(channel, parsed.error))
  } catch {
    return failure({ code: 'validation', message: `Invalid ${channel} request: it could not be read.` })
  }
}

/**
 * The single entry of every IPC message, from either host: validates the
 * channel and payload against the contract, runs the handler, and turns every
 * failure into data. Nothing a renderer sends can throw out of here.
 */
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

/** Notes on a saved query may be this long (the contract's bound), and a parameter value as long (a facet filter with hundreds of options). */
export const LONG_TEXT_LENGTH = 100_000

interface LongText {
  /** The most characters the string at `field` may have, in place of `stringLength`. */
  length(field: string): number
  /** The most entries a list may have, and values in all, in place of `items` and `nodes`. */
  items?: number
  nodes?: number
  /** The refusal in the user's words, where the generic one would only name the field. */
  refusal?(payload: unknown, length: number): string
}

/**
 * The few channels whose messages carry a long text: the requests that hold a saved
 * query's notes and parameters; and the one whose list is long, a set's
 * queries. Every other message keeps MESSAGE_LIMITS.
 */
const LONG_TEXT: Partial<Record<Channel, LongText>> = {
  'workspace:save-query': { length: () => LONG_TEXT_LENGTH },
  // A set of the 10,000 queries a file allows, saved from Edit set.
  'sets:save': { length: () => SET_FORM_MESSAGE.textLength, items: SET_FORM_MESSAGE.items, nodes: SET_FORM_MESSAGE.nodes },
  'workspace:draft': { length: () => LONG_TEXT_LENGTH },
}

/** What broke a bound: the field and rule, and for a long text the sentence the user is told, if it has one. */
type TooBig = { field: string; message: string; refusal?: string }

function oversized(channel: Channel, payload: unknown): TooBig | null {
  const long = LONG_TEXT[channel]
  const maxItems = long?.items ?? MESSAGE_LIMITS.items
  const maxNodes = long?.nodes ?? MESSAGE_LIMITS.nodes
  let nodes = 0
  const walk = (value: unknown, path: string, depth: number): TooBig | null => {
    const field = path || '(message)'
    if (++nodes > maxNodes) return { field: '(message)', message: `more than ${maxNodes.toLocaleString('en-US')} values in one message` }
    if (typeof value === 'string') {
      const limit = long ? long.length(path) : MESSAGE_LIMITS.stringLength
      if (value.length <= limit) return null
      const message = `text longer than ${limit.toLocaleString('en-US')} characters (${value.length.toLocaleString('en-US')})`
      return limit > MESSAGE_LIMITS.stringLength && long?.refusal ? { field, message, refusal: long.refusal(payload, value.length) } : { field, message }
    }
    if (typeof value !== 'object' || value === null) return null
    if (depth >= MESSAGE_LIMITS.depth) return { field, message: `nested deeper than ${MESSAGE_LIMITS.depth} levels` }
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value)
    if (entries.length > maxItems) return { field, message: `more than ${maxItems.toLocaleString('en-US')} entries` }
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
