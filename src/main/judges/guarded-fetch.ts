import { redactForms, secretForms } from '../../shared/security/redaction'
import type { CallMeter } from './call-meter'

/**
 * The `fetch` a provider SDK is given for one grade. The SDK builds the
 * request (path, headers, body, retries, Retry-After, timeouts); this decides
 * whether it may leave the process:
 * - only to the origin of the judge's base URL, so the key goes nowhere else;
 * - never after a redirect: a 3xx answer is a refusal naming its status, as
 *   following it would send the key's header on to wherever it points;
 * - only while the budget allows: one call (and the request's estimated
 *   tokens) is taken from the meter before every request, so the SDK's own
 *   retries count against it;
 * - only with the headers the SDK itself sets (SDK_HEADERS) and the key's
 *   header set here from the key alone: the SDKs also add headers read from
 *   the environment (OPENAI_CUSTOM_HEADERS, ANTHROPIC_CUSTOM_HEADERS, which
 *   may hold a gateway's token, or an Authorization that would replace the
 *   judge's key), and those never go to a judge's base URL, which a
 *   workspace file names.
 * A refusal aborts the grade's own controller (the SDK's request signal)
 * before it throws, so the SDK gives up at once instead of retrying, and the
 * client reads what was refused from `refusal()`.
 */

export type RefusalKind = 'budget' | 'origin' | 'redirect'

export class FetchRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message)
    this.name = 'FetchRefused'
  }
}

export interface GuardedFetchOptions {
  /** The judge's base URL (where the job runs it now): requests go to its origin only. */
  baseUrl: string
  meter: CallMeter
  /** The grade's own controller, given to the SDK as the request's signal and linked to the job's. */
  stop: AbortController
  /** Kept out of every message this writes. */
  key?: string | null
  /** The longest Retry-After the SDK is let wait (see clampRetryAfter). */
  maxRetryWaitMs?: number
  /** Tokens each request is estimated to take (its prompt's and its answer's), reserved from the token budget before it is sent. */
  estimatedTokens?: number
  /** The key's header, as the provider takes it (set here, whatever the SDK built); null: no auth header at all. */
  auth?: { name: string; value: string } | null
  /** Where the SDKs read their custom headers from (process.env). */
  env?: Record<string, string | undefined>
}

/** The headers the SDKs set on a request themselves (x-stainless-* too); any other is dropped. */
const SDK_HEADERS = new Set(['accept', 'content-type', 'user-agent', 'anthropic-version', 'idempotency-key'])
/** Headers that carry a key: never passed on from what the SDK built, the guard sets the key's own. */
const KEY_HEADERS = ['authorization', 'api-key', 'x-api-key']
/** The environment variables whose lines ("Name: value") the SDKs add to every request as headers. */
export const SDK_HEADER_VARIABLES = ['OPENAI_CUSTOM_HEADERS', 'ANTHROPIC_CUSTOM_HEADERS'] as const

/** The header names the environment gives the SDKs (lower case), read as the SDKs read them. */
function environmentHeaderNames(env: Record<string, string | undefined>): Set<string> {
  const names = new Set<string>()
  for (const variable of SDK_HEADER_VARIABLES) {
    for (const line of (env[variable] ?? '').split('\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) names.add(line.slice(0, colon).trim().toLowerCase())
    }
  }
  return names
}

/**
 * The request's headers as they may leave: the SDK's own (a name the
 * environment also sets is dropped, as its value may be the environment's;
 * content-type is always the SDK's, set after those), and the key's header.
 */
function requestHeaders(sent: ConstructorParameters<typeof Headers>[0], fromEnvironment: Set<string>, auth: { name: string; value: string } | null): Headers {
  const headers = new Headers()
  for (const [name, value] of new Headers(sent)) {
    if (KEY_HEADERS.includes(name)) continue
    if (!SDK_HEADERS.has(name) && !name.startsWith('x-stainless-')) continue
    if (fromEnvironment.has(name) && name !== 'content-type') continue
    headers.set(name, value)
  }
  if (auth) headers.set(auth.name, auth.value)
  return headers
}

/** A minute: past that, a job that waits shows nothing for too long; the item fails after its retries instead, saying how long the provider asked. */
export const MAX_RETRY_WAIT_MS = 60_000

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface GuardedFetch {
  fetch: Fetch
  /** What was refused, once something was; the grade stops there. */
  refusal(): FetchRefused | null
  /** Requests let through (each took a call from the meter). */
  sent(): number
}

/**
 * The text with every spelling of the key replaced (as written, with its
 * white space squeezed, base64, base64url): for any text built from a
 * server's words or an error's, before it is squeezed to a line or cut.
 */
export function withoutKey(text: string, key: string | null | undefined): string {
  if (!key) return text
  const squeezed = key.replace(/\s+/g, ' ')
  const forms = squeezed === key ? secretForms(key) : [...secretForms(key), ...secretForms(squeezed)].sort((a, b) => b.length - a.length)
  return redactForms(text, forms)
}

/** Why the meter refused a request: the calls spent, the tokens spent, or the tokens this one would pass. */
function budgetRefusal(meter: CallMeter, estimatedTokens: number): string {
  const { budget } = meter
  const n = (value: number) => value.toLocaleString('en-US')
  if (budget.tokens === undefined || meter.calls >= budget.calls) return `Not sent: the budget is spent (${n(meter.calls)} of ${n(budget.calls)} calls sent).`
  const used = `${n(meter.tokens.input + meter.tokens.output)} of ${n(budget.tokens)} tokens used${meter.reserved > 0 ? `, ${n(meter.reserved)} more estimated for calls that reported no usage (yet)` : ''}`
  if (meter.counted >= budget.tokens) return `Not sent: the budget is spent (${used}).`
  return `Not sent: it would pass the token budget (${used}; this call is estimated at about ${n(estimatedTokens)}).`
}

function urlOf(input: string | URL | Request): URL | null {
  try {
    return new URL(input instanceof Request ? input.url : String(input))
  } catch {
    return null
  }
}

/** The origin of an http(s) address; '' for anything else (an origin such as file:'s "null" would match itself). */
export function httpOrigin(address: string): string {
  try {
    const url = new URL(address)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : ''
  } catch {
    return ''
  }
}

/** Where a redirect points (a Location may be relative); '' when it does not parse. */
function targetOrigin(location: string, from: URL): string {
  try {
    return new URL(location, from).origin
  } catch {
    return ''
  }
}

/**
 * The answer with its Retry-After (and retry-after-ms) cut to `maxMs`: the
 * OpenAI SDK waits whatever a server asks (a day, for a spent daily quota),
 * not listening to a cancel meanwhile. The provider's own value stays in
 * x-provider-retry-after, for the failure's reason.
 */
function clampRetryAfter(response: Response, maxMs: number): Response {
  const seconds = response.headers.get('retry-after')
  const millis = response.headers.get('retry-after-ms')
  const asked = millis !== null && Number.isFinite(parseFloat(millis)) ? parseFloat(millis) : seconds === null ? NaN : Number.isFinite(parseFloat(seconds)) ? parseFloat(seconds) * 1000 : Date.parse(seconds) - Date.now()
  if (!(asked > maxMs)) return response
  const headers = new Headers(response.headers)
  headers.set('retry-after', String(maxMs / 1000))
  headers.delete('retry-after-ms')
  headers.set('x-provider-retry-after', seconds ?? `${millis} ms`)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

export function guardedFetch({ baseUrl, meter, stop, key = null, maxRetryWaitMs = MAX_RETRY_WAIT_MS, estimatedTokens = 0, auth = null, env = process.env }: GuardedFetchOptions): GuardedFetch {
  const origin = httpOrigin(baseUrl)
  const fromEnvironment = environmentHeaderNames(env)
  let refused: FetchRefused | null = null
  let sent = 0

  const refuse = (kind: RefusalKind, message: string): never => {
    refused ??= new FetchRefused(kind, withoutKey(message, key))
    stop.abort(refused)
    throw refused
  }

  const guarded: Fetch = async (input, init = {}) => {
    if (refused) throw refused
    const signal = init.signal ? AbortSignal.any([init.signal, stop.signal]) : stop.signal
    signal.throwIfAborted()
    const url = urlOf(input)
    if (!origin || !url || url.origin !== origin) {
      refuse('origin', `A request to ${url?.origin ?? 'an address that does not parse'} was refused: the judge's key is only ever sent to ${origin || 'the origin of its base URL'}.`)
    }
    if (!meter.take(estimatedTokens)) refuse('budget', budgetRefusal(meter, estimatedTokens))
    sent++
    const headers = requestHeaders(input instanceof Request ? input.headers : init.headers, fromEnvironment, auth)
    const response = await fetch(input, { ...init, headers, signal, redirect: 'manual' })
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined)
      const location = response.headers.get('location')
      const to = location ? targetOrigin(location, url!) : ''
      refuse(
        'redirect',
        `${origin} answered ${response.status}, a redirect${to && to !== origin ? ` to ${to}` : ''}: redirects are not followed, so the key is never sent anywhere but ${origin}. Set the judge's base URL to where the API answers.`,
      )
    }
    return clampRetryAfter(response, maxRetryWaitMs)
  }

  return { fetch: guarded, refusal: () => refused, sent: () => sent }
}
