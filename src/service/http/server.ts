import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { TokenService } from '../auth/token-request'
import { ServiceError } from '../refusal'
import { OAUTH_TOKEN_PATH } from '../../shared/auth'
import { answerAuth, answerOAuth } from './auth-route'
import { JUDGE_PATH, answerJudge, type JudgeHost } from './judge-route'
import { answerQuery, type QueryService } from './query-route'
import { errorReply, internalErrorReply, jsonReply, type Reply } from './reply'

/**
 * One loopback server for both hosts: `/auth/api/auth`, `/auth/oauth/token`
 * and `/query/…`, and the demo judge's OpenAI-compatible `/v1/…`
 * (judge-route.ts). Every answer, including refusals at the HTTP parser,
 * carries a JSON body.
 */

export const AUTH_PATH = '/auth'
export const QUERY_PATH = '/query'
/** Room for long chains and values, so they reach the router and get a precise 400. */
export const MAX_HEADER_BYTES = 128 * 1024

export interface Timeouts {
  /** Whole request (headers and body) must arrive within this time. */
  requestMs: number
}

/** The two token routes: the seed's JSON `/api/auth` and OAuth's `/oauth/token`. */
export type TokenRoute = 'json' | 'oauth'

export interface Hosts {
  auth: TokenService
  query: QueryService
  /** The demo judge (`/v1/chat/completions`, `/v1/models`); left out, /v1 is not served. */
  judge?: JudgeHost
  onTokenRequest(route: TokenRoute): void
  log(message: string): void
}

function methodNotAllowed(allowed: string): Reply {
  return jsonReply(405, { message: `Method not allowed: use ${allowed}` }, { Allow: allowed })
}

async function route(hosts: Hosts, request: IncomingMessage, wanted: () => boolean): Promise<Reply> {
  const raw = request.url ?? '/'
  const queryAt = raw.indexOf('?')
  const path = queryAt < 0 ? raw : raw.slice(0, queryAt)
  const search = queryAt < 0 ? '' : raw.slice(queryAt)
  if (path === `${AUTH_PATH}/api/auth` || path === `${AUTH_PATH}/api/auth/`) {
    if (request.method !== 'POST') return methodNotAllowed('POST')
    hosts.onTokenRequest('json')
    return answerAuth(hosts.auth, request)
  }
  if (path === AUTH_PATH + OAUTH_TOKEN_PATH || path === `${AUTH_PATH}${OAUTH_TOKEN_PATH}/`) {
    if (request.method !== 'POST') return methodNotAllowed('POST')
    hosts.onTokenRequest('oauth')
    // The Host the client used (127.0.0.1 or localhost), so its own query URL is recognised as the audience.
    return answerOAuth(hosts.auth, request, `http://${request.headers.host ?? ''}${QUERY_PATH}`)
  }
  if (path === QUERY_PATH || path.startsWith(`${QUERY_PATH}/`)) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET')
    return answerQuery(hosts.query, path, search, request.headers.authorization, wanted)
  }
  if (hosts.judge && (path === JUDGE_PATH || path.startsWith(`${JUDGE_PATH}/`))) return answerJudge(hosts.judge, request, path, wanted)
  return jsonReply(404, { message: `No such api: nothing is served at ${path.slice(0, 200)} (try ${QUERY_PATH}/…, POST ${AUTH_PATH}/api/auth or POST ${AUTH_PATH}${OAUTH_TOKEN_PATH})` })
}

function send(response: ServerResponse, reply: Reply): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body
  response.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) })
  response.end(body)
}

function rawErrorResponse(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ message })
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

/** Requests Node's parser refuses never reach a route; they still get a JSON answer. */
function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy()
    return
  }
  let response: string
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    response = rawErrorResponse(431, 'Request Header Fields Too Large', `Request header fields too large: the URL and headers may take at most ${MAX_HEADER_BYTES / 1024} KiB`)
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    response = rawErrorResponse(408, 'Request Timeout', 'Request timeout: the request did not arrive in time')
  } else {
    response = rawErrorResponse(400, 'Bad Request', 'Bad request: the HTTP request could not be parsed')
  }
  socket.end(response)
}

export function createServiceServer(hosts: Hosts, timeouts: Timeouts): Server {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.requestMs,
      // Slow clients are found by a periodic check; make it fine enough for short timeouts.
      connectionsCheckingInterval: Math.min(1000, timeouts.requestMs),
      keepAliveTimeout: 5000,
    },
    (request, response) => {
      // A query waiting for the query thread is skipped once its client has gone.
      let open = true
      response.once('close', () => (open = false))
      route(hosts, request, () => open)
        .catch((error: unknown) => {
          if (error instanceof ServiceError) return errorReply(error)
          hosts.log(`internal error on ${request.method} ${(request.url ?? '').split('?')[0]?.slice(0, 200)}: ${(error as Error)?.stack ?? String(error)}`)
          return internalErrorReply()
        })
        .then((reply) => {
          if (!response.headersSent && !response.destroyed) send(response, reply)
        })
        .catch(() => response.destroy())
    },
  )
  server.on('clientError', onClientError)
  return server
}
