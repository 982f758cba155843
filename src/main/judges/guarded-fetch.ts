import { redactForms, secretForms } from '../../shared/security/redaction'
import type { CallMeter } from './call-meter'

/**
 * The `fetch` a provider SDK is given for one grade. The SDK builds the
 * request (path, headers, body, retries, Retry-After, timeouts); this decides
 * whether it may leave the process:
 * - only to the origin of the judge's base URL, so the key goes nowhere else;
 * - never after a redirect: a 3xx answer is a refusal naming its status, as
 *   following it would send the key's header on to wherever it points;
 * - only while the budget allows: one call is taken from the meter before
 *   every request, so the SDK's own retries count against it.
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

/** The text with every spelling of the key (as written, base64, base64url) replaced: for any text built from a server's words. */
export function withoutKey(text: string, key: string | null | undefined): string {
  return key ? redactForms(text, secretForms(key)) : text
}

function budgetText(meter: CallMeter): string {
  const { budget } = meter
  const used = meter.tokens.input + meter.tokens.output
  if (budget.tokens !== undefined && used >= budget.tokens) {
    return `${used.toLocaleString('en-US')} of ${budget.tokens.toLocaleString('en-US')} tokens used`
  }
  return `${meter.calls.toLocaleString('en-US')} of ${budget.calls.toLocaleString('en-US')} calls sent`
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

export function guardedFetch({ baseUrl, meter, stop, key = null, maxRetryWaitMs = MAX_RETRY_WAIT_MS }: GuardedFetchOptions): GuardedFetch {
  const origin = httpOrigin(baseUrl)
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
    if (!meter.take()) refuse('budget', `Not sent: the budget is spent (${budgetText(meter)}).`)
    sent++
    const response = await fetch(input, { ...init, signal, redirect: 'manual' })
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
