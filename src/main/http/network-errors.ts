import { errors as undiciErrors } from 'undici'
import { ExplorerError } from '../../shared/ipc/errors'

/** The client's timeouts, for the sentences that name them. */
export interface TimeoutSettings {
  connectTimeoutMs: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
}

/** Codes of a connection the server (or something between) closed or reset. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])

/** True when the error is the connection being closed or reset by the other side. */
export function closedByPeer(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string } } | null
  return CLOSED.has(err?.code ?? '') || CLOSED.has(err?.cause?.code ?? '')
}

/** A GET whose connection closed before the answer began, twice: on its first connection and on the fresh one it was sent again on. */
export function closedBeforeAnswer(url: URL): ExplorerError {
  return new ExplorerError(
    'network',
    `${url.host} closed the connection before answering, and again when the request was sent once more on a fresh connection: the connection to the service fails (a proxy or the service dropping connections?).`,
  )
}

/** Names what failed (refused, DNS, TLS, timeout, cancel) without echoing headers. */
export function describeNetworkError(error: unknown, url: URL, options: TimeoutSettings): ExplorerError {
  if (error instanceof ExplorerError) return error
  const where = url.host
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } }
  const code = err.code ?? err.cause?.code
  if (err.name === 'AbortError' || error instanceof undiciErrors.RequestAbortedError) {
    return new ExplorerError('cancelled', 'The request was cancelled.')
  }
  if (error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ExplorerError('timeout', `Could not connect to ${where} within ${options.connectTimeoutMs / 1000} s (timeout).`)
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new ExplorerError('timeout', `${where} did not answer within ${options.headersTimeoutMs / 1000} s (timeout).`)
  }
  if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ExplorerError('timeout', `${where} stopped sending the answer for ${options.bodyTimeoutMs / 1000} s (timeout).`)
  }
  if (closedByPeer(error)) return new ExplorerError('network', `${where} closed the connection before the answer was complete.`)
  switch (code) {
    case 'ECONNREFUSED':
      return new ExplorerError('network', `Connection refused by ${where}: is the service running, and is the address right?`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ExplorerError('network', `The host name ${url.hostname} could not be resolved (DNS): check the address.`)
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ExplorerError('network', `${where} cannot be reached from this machine (no route).`)
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_STATUS':
      return new ExplorerError('network', `${where} did not answer with HTTP (is it the right port, or does it expect https?).`)
  }
  // undici's parser names no HPE_ code when the answer's first line is not an HTTP status line (an SSH banner, TLS on a plain port).
  if (error instanceof undiciErrors.HTTPParserError && code === undefined) {
    return new ExplorerError('network', `${where} did not answer with HTTP (is it the right port, or does it expect https?).`)
  }
  if (code && /CERT|SSL|TLS|ERR_SSL/.test(code)) {
    return new ExplorerError('network', `The TLS connection to ${where} failed (${code}): the certificate or TLS setup is not accepted.`)
  }
  if (code?.startsWith('HPE_')) {
    return new ExplorerError('network', `${where} sent an answer that is not valid HTTP (${code}).`)
  }
  return new ExplorerError('network', `The request to ${where} failed (${code ?? err.name ?? 'unknown error'}).`)
}
