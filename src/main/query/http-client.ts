import { Pool, errors as undiciErrors, type Dispatcher } from 'undici'
import { formatBytes } from '../../shared/byte-size'
import { checkHttpUrl } from '../../shared/connections/connection-rules'
import { ExplorerError } from '../../shared/ipc/errors'

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

/**
 * How one owner cancels requests it makes, one after another (the query
 * runner: a token renewal's replay is the second). A request in flight puts
 * its abort function in `abort`; `cancel` sets `cancelled` and calls it.
 * An AbortController and its listener cost more per request than
 * everything else the runner adds to undici (bench/query-client.ts).
 */
export interface CancelHandle {
  cancelled: boolean
  abort: (() => void) | null
}

export function cancelHandle(): CancelHandle {
  return { cancelled: false, abort: null }
}

export function cancel(handle: CancelHandle): void {
  handle.cancelled = true
  handle.abort?.()
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
}

const DEFAULTS: Required<HttpClientOptions> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  maxResponseBytes: 50 * 1024 * 1024,
  maxBytesInFlight: 160 * 1024 * 1024,
  requestDeadlineMs: 60_000,
  connections: 16,
}

/**
 * One keep-alive undici Pool per origin. Never follows redirects: a 3xx comes
 * back as it is (the caller decides), so a token is never carried to another
 * origin. Errors name what failed (DNS, refused, TLS, timeout, size) and never
 * carry a request header.
 */
export class HttpClient {
  private readonly pools = new Map<string, Pool>()
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
      const settle = (error: unknown, response?: HttpResponse) => {
        if (settled) return
        settled = true
        this.deadlines.delete(deadline)
        this.bytesInFlight -= size
        signal?.removeEventListener('abort', onAbort)
        if (handle?.abort === onAbort) handle.abort = null
        if (response) resolve(response)
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
          settle(error)
        },
      }
      try {
        pool.dispatch(
          { path: target.path, method: request.method ?? 'GET', headers: request.headers, body: request.body ?? null },
          handler,
        )
      } catch (error) {
        settle(error)
      }
    })
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
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)))
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

/**
 * Whole-request deadlines of the requests in flight, on one timer: the one
 * set for the earliest deadline. A timer per request would make and unmake
 * Node's timer list for that duration on every request, which is most of what
 * a deadline costs.
 */
class Deadlines {
  private readonly entries = new Set<{ at: number; expire: () => void }>()
  private timer: NodeJS.Timeout | null = null
  private timerAt = Infinity

  add(at: number, expire: () => void): { at: number; expire: () => void } {
    const entry = { at, expire }
    this.entries.add(entry)
    if (at < this.timerAt) this.schedule(at)
    return entry
  }

  delete(entry: { at: number; expire: () => void }): void {
    this.entries.delete(entry)
  }

  clear(): void {
    this.entries.clear()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.timerAt = Infinity
  }

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timerAt = at
    // Unref'd: a request in flight keeps the process alive through its socket, not through its deadline.
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - performance.now()))
    this.timer.unref()
  }

  private sweep(): void {
    this.timer = null
    this.timerAt = Infinity
    const now = performance.now()
    let next = Infinity
    for (const entry of this.entries) {
      if (entry.at <= now) {
        this.entries.delete(entry)
        entry.expire()
      } else if (entry.at < next) next = entry.at
    }
    if (next < Infinity) this.schedule(next)
  }
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

function pastDeadline(url: URL, ms: number): ExplorerError {
  return new ExplorerError(
    'timeout',
    `${url.host} did not complete the answer within ${ms / 1000} s (the request's deadline; it can be changed in the connection's advanced settings).`,
  )
}

function tooLarge(max: number, declared?: number): ExplorerError {
  const size = declared === undefined ? `larger than ${formatBytes(max)}` : `${formatBytes(declared)}, over the ${formatBytes(max)} limit`
  return new ExplorerError('too_large', `The response is ${size}; it was not read. Ask for fewer results (a smaller count) or a lower level.`)
}



/** Names what failed (refused, DNS, TLS, timeout, cancel) without echoing headers. */
export function describeNetworkError(error: unknown, url: URL, options: Required<HttpClientOptions>): ExplorerError {
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
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return new ExplorerError('network', `${where} closed the connection before the answer was complete.`)
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_STATUS':
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
