import { Pool, errors as undiciErrors } from 'undici'
import { ExplorerError } from '../../shared/ipc/errors'

export interface HttpRequest {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  signal?: AbortSignal
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  timings: { connectMs: number | null; firstByteMs: number; totalMs: number }
}

export interface HttpClientOptions {
  connectTimeoutMs?: number
  headersTimeoutMs?: number
  bodyTimeoutMs?: number
  /** Bodies past this size are refused with a clear error instead of filling memory. */
  maxResponseBytes?: number
}

const DEFAULTS: Required<HttpClientOptions> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  maxResponseBytes: 50 * 1024 * 1024,
}

/**
 * One keep-alive undici Pool per origin. Never follows redirects: a 3xx comes
 * back as it is, so a token is never carried to another origin.
 */
export class HttpClient {
  private readonly pools = new Map<string, Pool>()
  private readonly options: Required<HttpClientOptions>

  constructor(options: HttpClientOptions = {}) {
    this.options = { ...DEFAULTS, ...options }
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const url = parseHttpUrl(request.url)
    const started = performance.now()
    try {
      const response = await this.pool(url.origin).request({
        path: url.pathname + url.search,
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        signal: request.signal,
      })
      const firstByteMs = performance.now() - started
      const body = await readCapped(response.body, this.options.maxResponseBytes)
      return {
        status: response.statusCode,
        headers: response.headers,
        body,
        timings: { connectMs: null, firstByteMs, totalMs: performance.now() - started },
      }
    } catch (error) {
      throw describeNetworkError(error, url, this.options)
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)))
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin)
    if (!pool) {
      pool = new Pool(origin, {
        connections: 16,
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

function parseHttpUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ExplorerError('validation', `"${text.slice(0, 200)}" is not a valid URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ExplorerError('validation', `The URL must start with http:// or https:// (got ${url.protocol}).`)
  }
  return url
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > max) {
      body.destroy()
      throw new ExplorerError(
        'too_large',
        `The response is larger than ${formatBytes(max)}; it was not read. Ask for fewer results (a smaller count).`,
      )
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/** Names what failed (refused, DNS, TLS, timeout, cancel) without echoing headers. */
function describeNetworkError(error: unknown, url: URL, options: Required<HttpClientOptions>): ExplorerError {
  if (error instanceof ExplorerError) return error
  const where = url.host
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } }
  const code = err.code ?? err.cause?.code
  if (err.name === 'AbortError' || error instanceof undiciErrors.RequestAbortedError) {
    return new ExplorerError('cancelled', 'The request was cancelled.')
  }
  if (error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ExplorerError('timeout', `Could not connect to ${where} within ${options.connectTimeoutMs / 1000} s.`)
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new ExplorerError('timeout', `${where} did not answer within ${options.headersTimeoutMs / 1000} s.`)
  }
  if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ExplorerError('timeout', `${where} stopped sending the answer for ${options.bodyTimeoutMs / 1000} s.`)
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new ExplorerError('network', `Connection refused by ${where}: is the service running?`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ExplorerError('network', `The host name ${url.hostname} could not be resolved (DNS).`)
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return new ExplorerError('network', `${where} closed the connection before the answer was complete.`)
  }
  if (code && /CERT|SSL|TLS/.test(code)) {
    return new ExplorerError('network', `The TLS connection to ${where} failed (${code}).`)
  }
  return new ExplorerError('network', `The request to ${where} failed (${code ?? err.name ?? 'unknown error'}).`)
}
