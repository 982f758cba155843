import { Client, Pool, errors as undiciErrors, type Dispatcher } from 'undici'
import { formatBytes } from '../../shared/byte-size'
import { checkHttpUrl } from '../../shared/connections/connection-rules'
import { ExplorerError } from '../../shared/ipc/errors'
import type { CancelHandle } from './cancel-handle'
import { Deadlines, pastDeadline } from './deadlines'
import { closedBeforeAnswer, closedByPeer, describeNetworkError } from './network-errors'

export interface HttpRequest {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  signal?: AbortSignal
  /** Like `signal`, for a caller that alone may cancel: cheaper than an AbortSignal's event machinery (see CancelHandle). */
  cancel?: CancelHandle
  /** The whole request, answer included, must be done within this time; default `requestDeadlineMs`. */
  deadlineMs?: number
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  /**
   * Milliseconds from the start of the request: `connectMs` until the request
   * had a connected socket (near 0 on a kept-alive one), `firstByteMs` until
   * the status line and headers arrived, `totalMs` until the body was read.
   */
  timings: { connectMs: number | null; firstByteMs: number; totalMs: number }
}

/** A response header's value (the first, if it came more than once), or ''. */
export function header(response: HttpResponse, name: string): string {
  const value = response.headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

export interface HttpClientOptions {
  connectTimeoutMs?: number
  headersTimeoutMs?: number
  bodyTimeoutMs?: number
  /** Bodies past this size are refused with a clear error instead of filling memory. */
  maxResponseBytes?: number
  /** Bytes of answers being read at once, over every request and host: past it, the request that grows them is stopped. */
  maxBytesInFlight?: number
  /** The whole request must be done within this time: the body timeout counts only gaps, so a server dripping a byte a second would never end. */
  requestDeadlineMs?: number
  /** Sockets kept per origin. */
  connections?: number
  /** Told of each GET sent again after its connection closed before the answer began; never given a header or a path. */
  log?: (message: string) => void
}

const DEFAULTS: Required<HttpClientOptions> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  maxResponseBytes: 50 * 1024 * 1024,
  maxBytesInFlight: 160 * 1024 * 1024,
  requestDeadlineMs: 60_000,
  connections: 16,
  log: () => undefined,
}

/**
 * One keep-alive undici Pool per origin. Never follows redirects: a 3xx comes
 * back as it is (the caller decides), so a token is never carried to another
 * origin. Errors name what failed (DNS, refused, TLS, timeout, size; worded in
 * network-errors.ts) and never carry a request header.
 *
 * A GET whose connection closes before the answer begins (a kept-alive
 * connection the server or a proxy dropped as the request went out, a
 * server that closes a connection it will not serve) is sent once more on a
 * fresh connection, as browsers do, and counted (`earlyCloseRetries`, and a
 * line to `log`). A second such close, or a close once the answer has begun,
 * is an error that says the connection failed.
 */
export class HttpClient {
  private readonly pools = new Map<string, Pool>()
  /** The one-request connections of retries, until their request is done. */
  private readonly freshClients = new Set<Client>()
  /** GETs sent again on a fresh connection after their first connection closed before the answer began. */
  earlyCloseRetries = 0
  readonly options: Required<HttpClientOptions>
  /** Bytes of answers received and not yet handed over, over all requests. */
  private bytesInFlight = 0
  /** The origin of each URL prefix (scheme and authority, as written) that parseHttpUrl has accepted. */
  private readonly origins = new Map<string, string>()
  private readonly deadlines = new Deadlines()

  constructor(options: HttpClientOptions = {}) {
    this.options = { ...DEFAULTS, ...options }
  }

  request(request: HttpRequest): Promise<HttpResponse> {
    const target = this.targetOf(request.url)
    const options = this.options
    const pool = this.pool(target.origin)
    // The undici handler's methods below have their own `this`.
    const client = this
    return new Promise<HttpResponse>((resolve, reject) => {
      const started = performance.now()
      let connectMs: number | null = null
      let firstByteMs = 0
      let status = 0
      let headers: HttpResponse['headers'] = {}
      const chunks: Buffer[] = []
      let size = 0
      let controller: Dispatcher.DispatchController | null = null
      let settled = false
      const signal = request.signal
      const deadlineMs = request.deadlineMs ?? options.requestDeadlineMs
      const deadline = this.deadlines.add(started + deadlineMs, () => fail(pastDeadline(new URL(request.url), deadlineMs)))

      const handle = request.cancel
      const method = request.method ?? 'GET'
      let retried = false
      const settle = (error: unknown, response?: HttpResponse) => {
        if (settled) return
        settled = true
        this.deadlines.delete(deadline)
        this.bytesInFlight -= size
        signal?.removeEventListener('abort', onAbort)
        if (handle?.abort === onAbort) handle.abort = null
        if (response) resolve(response)
        else if (retried && status === 0 && closedByPeer(error)) reject(closedBeforeAnswer(new URL(request.url)))
        else reject(describeNetworkError(error, new URL(request.url), options))
      }
      const fail = (error: unknown) => {
        if (controller && !controller.aborted) controller.abort(error instanceof Error ? error : new Error(String(error)))
        settle(error)
      }
      const onAbort = () => fail(new undiciErrors.RequestAbortedError())
      if (signal?.aborted || handle?.cancelled) return onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      if (handle) handle.abort = onAbort

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(ctrl) {
          controller = ctrl
          if (settled) return ctrl.abort(new undiciErrors.RequestAbortedError())
          connectMs = performance.now() - started
        },
        onResponseStart(ctrl, statusCode, responseHeaders) {
          // 1xx informational answers come before the real one.
          if (statusCode < 200) return
          status = statusCode
          headers = responseHeaders
          firstByteMs = performance.now() - started
          const declared = Number(responseHeaders['content-length'])
          if (Number.isFinite(declared) && declared > options.maxResponseBytes) fail(tooLarge(options.maxResponseBytes, declared))
          else if (Number.isFinite(declared) && declared + client.bytesInFlight > options.maxBytesInFlight) fail(tooMuchAtOnce(options.maxBytesInFlight))
        },
        onResponseData(_ctrl, chunk) {
          if (settled) return
          size += chunk.length
          client.bytesInFlight += chunk.length
          if (size > options.maxResponseBytes) return fail(tooLarge(options.maxResponseBytes))
          if (client.bytesInFlight > options.maxBytesInFlight) return fail(tooMuchAtOnce(options.maxBytesInFlight))
          chunks.push(chunk)
        },
        onResponseEnd() {
          settle(null, {
            status,
            headers,
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size),
            timings: { connectMs, firstByteMs, totalMs: performance.now() - started },
          })
        },
        onResponseError(_ctrl, error) {
          // Closed before the status line: nothing of the answer was read, so a GET can be sent again.
          if (!settled && !retried && status === 0 && method === 'GET' && closedByPeer(error)) {
            retried = true
            controller = null
            client.earlyCloseRetries++
            options.log(`GET to ${target.origin}: the connection closed before the answer began; sent again on a fresh connection (${client.earlyCloseRetries} such in this run)`)
            return client.sendOnFreshConnection(target.origin, send)
          }
          settle(error)
        },
      }
      const send = (dispatcher: Dispatcher) => {
        try {
          dispatcher.dispatch({ path: target.path, method, headers: request.headers, body: request.body ?? null }, handler)
        } catch (error) {
          settle(error)
        }
      }
      send(pool)
    })
  }

  /**
   * Sends a retried request on a connection of its own, closed once that
   * request is done: a pool could hand out another kept-alive connection,
   * which the server may have dropped as well.
   */
  private sendOnFreshConnection(origin: string, send: (dispatcher: Dispatcher) => void): void {
    const fresh = new Client(origin, {
      pipelining: 1,
      connect: { timeout: this.options.connectTimeoutMs },
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: this.options.bodyTimeoutMs,
    })
    this.freshClients.add(fresh)
    send(fresh)
    // close() lets the request just given to it finish, then ends the connection.
    void fresh
      .close()
      .catch(() => undefined)
      .finally(() => this.freshClients.delete(fresh))
  }

  /**
   * The pool's origin and the path and query to send. parseHttpUrl (a WHATWG
   * URL parse) decides, and is the answer for anything unusual; the URLs the
   * app builds are already in the form it gives, so for them the text is
   * split as it stands and only the origin's check is remembered.
   */
  private targetOf(text: string): { origin: string; path: string } {
    const split = splitPlainUrl(text)
    if (split) {
      let origin = this.origins.get(split.prefix)
      if (origin === undefined) {
        origin = parseHttpUrl(`${split.prefix}/`).origin
        if (this.origins.size > 100) this.origins.clear()
        this.origins.set(split.prefix, origin)
      }
      return { origin, path: split.path }
    }
    const url = parseHttpUrl(text)
    return { origin: url.origin, path: url.pathname + url.search }
  }

  async close(): Promise<void> {
    this.deadlines.clear()
    const dispatchers: Dispatcher[] = [...this.pools.values(), ...this.freshClients]
    this.pools.clear()
    this.freshClients.clear()
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.destroy().catch(() => undefined)))
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin)
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.options.connections,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        connect: { timeout: this.options.connectTimeoutMs },
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: this.options.bodyTimeoutMs,
      })
      this.pools.set(origin, pool)
    }
    return pool
  }
}

/**
 * `http(s)://<authority><path>` where a WHATWG parse would change nothing:
 * an authority of host name, IP and port characters only (no user info), a
 * path and query of visible ASCII other than the characters the parser
 * percent-encodes (" # < > ` { } ' and the backslash it reads as a slash),
 * no dot segment (not even "/." or an encoded dot), no empty query. Null for
 * anything else, which then gets the full parse.
 */
export function splitPlainUrl(text: string): { prefix: string; path: string } | null {
  const scheme = text.startsWith('https://') ? 8 : text.startsWith('http://') ? 7 : 0
  if (scheme === 0) return null
  const slash = text.indexOf('/', scheme)
  if (slash <= scheme) return null
  for (let i = scheme; i < slash; i++) {
    const code = text.charCodeAt(i)
    // a-z A-Z 0-9 . - : [ ]
    if (!((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 58) || code === 46 || code === 45 || code === 91 || code === 93)) return null
  }
  for (let i = slash; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 || code >= 0x7f || code === 34 || code === 35 || code === 60 || code === 62 || code === 96 || code === 123 || code === 125 || code === 39 || code === 92) return null
  }
  if (text.includes('/.', slash) || text.includes('%2e', slash) || text.includes('%2E', slash) || text.endsWith('?')) return null
  return { prefix: text.slice(0, slash), path: text.slice(slash) }
}

/** An absolute http(s) URL without credentials (the rule is shared with the connection form), else a validation error. */
export function parseHttpUrl(text: string): URL {
  const checked = checkHttpUrl(text)
  if (!checked.ok) throw new ExplorerError('validation', checked.message)
  return checked.url
}

function tooMuchAtOnce(max: number): ExplorerError {
  return new ExplorerError(
    'too_large',
    `The answers being read at once hold more than ${formatBytes(max)} together, so this one was stopped to keep the app's memory bounded. Run it again when the others are done, or ask for fewer results.`,
  )
}

function tooLarge(max: number, declared?: number): ExplorerError {
  const size = declared === undefined ? `larger than ${formatBytes(max)}` : `${formatBytes(declared)}, over the ${formatBytes(max)} limit`
  return new ExplorerError('too_large', `The response is ${size}; it was not read. Ask for fewer results (a smaller count) or a lower level.`)
}
