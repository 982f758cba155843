import { ServiceError } from '../refusal'

/** What a route answers, before it is written to the socket. */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string | Buffer
}

export const JSON_TYPE = 'application/json; charset=utf-8'

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(value) }
}

export function errorReply(error: ServiceError): Reply {
  return jsonReply(error.status, error.body ?? { message: error.message }, error.headers)
}

/** A fault of ours: the body says so without internals; details go to the operator's log. */
export function internalErrorReply(): Reply {
  return jsonReply(500, { message: 'Internal error: the service failed to answer this request; it has been logged' })
}
