import Anthropic, { APIConnectionError as AnthropicConnection, APIConnectionTimeoutError as AnthropicTimeout } from '@anthropic-ai/sdk'
import OpenAI, { APIConnectionError as OpenAiConnection, APIConnectionTimeoutError as OpenAiTimeout, AzureOpenAI } from 'openai'
import { answerJsonSchema, ESTIMATED_OUTPUT_TOKENS, estimateTokens, modelWords, parseJudgeAnswer, type Judge } from '../../shared/relevance/llm-judge'
import type { Scale } from '../../shared/relevance/query-set'
import { originOf } from '../credentials/bound-secret'
import { describeNetworkError } from '../http/network-errors'
import type { CallMeter, TokenUsage } from './call-meter'
import { guardedFetch, httpOrigin, MAX_RETRY_WAIT_MS, withoutKey, type Fetch, type GuardedFetch } from './guarded-fetch'

/**
 * One judge's requests to its model, through the provider's official SDK
 * (issue 36): OpenAI Chat Completions (OpenAI and the servers that offer it:
 * Ollama's /v1, vLLM, LM Studio), Azure OpenAI (deployment URL, api-version,
 * api-key header) and Anthropic Messages. The SDKs retry (408, 409, 429,
 * 5xx, a dropped connection), wait out Retry-After and time out as the
 * providers expect; every request they send passes the guarded fetch (the
 * judge's origin only, no redirect, one call from the budget each).
 *
 * Structured output is asked for where the provider takes it (a JSON schema
 * on OpenAI and Azure; a forced `grade` tool on Anthropic), but every answer
 * is read and checked the same way (parseJudgeAnswer): an answer off the
 * scale fails with the model's words, never a guessed grade.
 *
 * grade() never throws for a provider, network or answer problem: it answers
 * a failure whose reason never holds the key.
 */

export type GradeResult =
  | { ok: true; grade: number; explanation: string; usage: TokenUsage | null }
  | { ok: false; reason: string; budget?: true /* the meter refused a request: not a failure */ }

export interface JudgeClient {
  grade(prompt: string, scale: Scale, signal: AbortSignal): Promise<GradeResult>
}

export interface JudgeClientOptions {
  /** Retries after the first request (each one is a call against the budget). */
  maxRetries?: number
  /** Per request. */
  timeoutMs?: number
  /** The longest Retry-After waited out (default a minute, MAX_RETRY_WAIT_MS). */
  maxRetryWaitMs?: number
}

export const DEFAULT_MAX_RETRIES = 2
export const DEFAULT_TIMEOUT_MS = 60_000
/**
 * The bound on an answer's tokens: a grade and an explanation of 300
 * characters fit well within it. Anthropic requires one on every request;
 * OpenAI and Azure are given it (max_completion_tokens) when the run has a
 * token budget, so an answer passes its estimate by at most this much (a
 * reasoning model spends its reasoning from it too, and may then stop at the
 * limit: the item fails saying so).
 */
export const ANSWER_MAX_TOKENS = 300
export const ANTHROPIC_MAX_TOKENS = ANSWER_MAX_TOKENS
/** The name of the JSON schema (OpenAI, Azure) and of the forced tool (Anthropic). */
export const GRADE_TOOL = 'grade'

/**
 * The SDKs refuse to start without a key; a judge without one (Ollama, a
 * local vLLM) gives them this and removes their auth header (a header set to
 * null in defaultHeaders is omitted, which the SDKs accept as "no auth").
 */
const NO_KEY = 'no-key'

/** The model's words and what it cost, read from a provider's answer. */
interface Answer {
  text: string
  usage: TokenUsage | null
  /** The answer stopped at the token limit. */
  cut: boolean
}

interface AskSettings {
  judge: Judge
  baseUrl: string
  key: string | null
  /** The bound on the answer's tokens sent to OpenAI and Azure (null: none sent, the provider's own). */
  maxOutputTokens: number | null
  maxRetries: number
  timeoutMs: number
  maxRetryWaitMs: number
}

/** A 200 that is not the provider's answer at all (another server, a proxy's page). */
class NotAnAnswer extends Error {}

type Ask = (prompt: string, scale: Scale, fetch: Fetch, signal: AbortSignal) => Promise<Answer>

/** A count as a provider reported it, or null when it sent none (some OpenAI-compatible servers). */
function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null
}

function usageOf(input: unknown, output: unknown): TokenUsage | null {
  const a = count(input)
  const b = count(output)
  return a === null && b === null ? null : { input: a ?? 0, output: b ?? 0 }
}

function structuredFormat(scale: Scale) {
  return { type: 'json_schema' as const, json_schema: { name: GRADE_TOOL, strict: true, schema: answerJsonSchema(scale) } }
}

/** OpenAI Chat Completions, and Azure OpenAI (the same body; the SDK puts the deployment and api-version in the URL). */
function chatCompletions(settings: AskSettings, client: (fetch: Fetch) => OpenAI): Ask {
  const { judge } = settings
  return async (prompt, scale, fetch, signal) => {
    const completion = await client(fetch).chat.completions.create(
      {
        model: judge.model,
        messages: [{ role: 'user', content: prompt }],
        temperature: judge.temperature,
        ...(judge.seed !== undefined ? { seed: judge.seed } : {}),
        ...(settings.maxOutputTokens !== null ? { max_completion_tokens: settings.maxOutputTokens } : {}),
        ...(judge.structured ? { response_format: structuredFormat(scale) } : {}),
      },
      { signal, maxRetries: settings.maxRetries, timeout: settings.timeoutMs },
    )
    const choices = (completion as Partial<typeof completion> | null)?.choices
    if (!Array.isArray(choices)) {
      throw new NotAnAnswer(`${originOf(settings.baseUrl)} answered, but not with a chat completion: is the base URL the API root (for OpenAI-compatible servers it ends in /v1)?`)
    }
    const choice = choices[0]
    const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined
    const text = typeof message?.content === 'string' ? message.content : typeof message?.refusal === 'string' ? message.refusal : ''
    const usage = (completion as Partial<typeof completion>).usage
    return { text, usage: usageOf(usage?.prompt_tokens, usage?.completion_tokens), cut: choice?.finish_reason === 'length' }
  }
}

function openAiAsk(settings: AskSettings): Ask {
  const { baseUrl, key } = settings
  return chatCompletions(
    settings,
    (fetch) =>
      new OpenAI({
        ...openAiOptions(settings, fetch),
        baseURL: baseUrl,
        ...(key ? {} : { defaultHeaders: { Authorization: null } }),
      }),
  )
}

/**
 * What the OpenAI and Azure clients are both given: the key (or the
 * placeholder of a judge without one), the retries and timeout, the guarded
 * fetch, and every setting the SDK would otherwise read from the environment
 * named (OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_LOG, OPENAI_ADMIN_KEY: an
 * admin key there would replace the judge's key in the Authorization header).
 */
function openAiOptions(settings: AskSettings, fetch: Fetch) {
  return {
    apiKey: settings.key ?? NO_KEY,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    logLevel: 'off' as const,
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
    fetch,
  }
}

/** Azure's API root under the resource endpoint the judge names (an endpoint already ending in /openai is kept). */
export function azureApiRoot(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '')
  return /\/openai(\/|$)/.test(new URL(trimmed).pathname) ? trimmed : `${trimmed}/openai`
}

function azureAsk(settings: AskSettings): Ask {
  const { baseUrl, key, judge } = settings
  return chatCompletions(settings, (fetch) => {
    // Named, or the SDK would take OPENAI_API_VERSION from the environment.
    if (!judge.apiVersion) throw new Error("Azure OpenAI needs the judge's api-version.")
    return new AzureOpenAI({
      ...openAiOptions(settings, fetch),
      // baseURL rather than endpoint: the SDK then reads no OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT from the environment.
      baseURL: azureApiRoot(baseUrl),
      apiVersion: judge.apiVersion,
      deployment: judge.model,
      ...(key ? {} : { defaultHeaders: { 'api-key': null } }),
    })
  })
}

function anthropicAsk(settings: AskSettings): Ask {
  const { baseUrl, key, judge } = settings
  return async (prompt, scale, fetch, signal) => {
    const client = new Anthropic({
      apiKey: key ?? NO_KEY,
      baseURL: baseUrl,
      // Named so the SDK reads none of them from the environment (ANTHROPIC_WEBHOOK_SIGNING_KEY, ANTHROPIC_LOG, ANTHROPIC_OPEN_TELEMETRY*).
      webhookKey: null,
      openTelemetry: false,
      logLevel: 'off',
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      fetch,
      ...(key ? {} : { defaultHeaders: { Authorization: null } }),
    })
    const message = await client.messages.create(
      {
        model: judge.model,
        max_tokens: ANSWER_MAX_TOKENS,
        // No temperature or seed: the Messages API version this SDK speaks (anthropic-version 2026-10-21) takes neither.
        messages: [{ role: 'user', content: prompt }],
        ...(judge.structured
          ? {
              tools: [
                {
                  name: GRADE_TOOL,
                  description: 'Records the grade of the search result on the scale, with a short explanation.',
                  input_schema: answerJsonSchema(scale) as Anthropic.Messages.Tool.InputSchema,
                },
              ],
              tool_choice: { type: 'tool' as const, name: GRADE_TOOL },
            }
          : {}),
      },
      { signal, maxRetries: settings.maxRetries, timeout: settings.timeoutMs },
    )
    if (!Array.isArray(message?.content)) {
      throw new NotAnAnswer(`${originOf(baseUrl)} answered, but not with a message: is the base URL the API root (https://api.anthropic.com, without /v1)?`)
    }
    const blocks = message.content as Array<{ type?: unknown; name?: unknown; input?: unknown; text?: unknown }>
    const tool = blocks.find((block) => block.type === 'tool_use' && block.name === GRADE_TOOL)
    // A model that answers in text despite the tool is read like any text answer.
    const text = tool ? JSON.stringify(tool.input ?? null) : blocks.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n')
    const usage = message?.usage as { input_tokens?: unknown; output_tokens?: unknown; cache_creation_input_tokens?: unknown; cache_read_input_tokens?: unknown } | undefined
    // Tokens read from or written to the prompt cache are input the provider counts apart.
    const input = [usage?.input_tokens, usage?.cache_creation_input_tokens, usage?.cache_read_input_tokens].map(count).reduce<number | null>((sum, n) => (n === null ? sum : (sum ?? 0) + n), null)
    return { text, usage: usageOf(input, usage?.output_tokens), cut: message?.stop_reason === 'max_tokens' }
  }
}

const ASKERS: Record<Judge['provider'], (settings: AskSettings) => Ask> = {
  openai: openAiAsk,
  'azure-openai': azureAsk,
  anthropic: anthropicAsk,
}

/** The work, or the signal's reason as soon as it aborts: an SDK waiting out a Retry-After does not always listen to it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** An SDK error as both SDKs build them (APIError and its kin). */
interface SdkError {
  name?: string
  message?: string
  status?: number
  error?: unknown
  headers?: { get(name: string): string | null } | null
  cause?: unknown
}

function isTimeout(error: unknown): boolean {
  return error instanceof OpenAiTimeout || error instanceof AnthropicTimeout
}

/** A connection that failed (refused, reset, DNS, TLS), after the SDK's retries. */
function isConnectionFailure(error: unknown): boolean {
  return error instanceof OpenAiConnection || error instanceof AnthropicConnection
}

/** The server's own words and error type from an error answer: OpenAI/Azure `{error: {message, type|code}}`, Anthropic `{type: 'error', error: {type, message}}`. */
function serverWords(error: SdkError, status: number): { words: string; type: string | null } {
  const body = error.error as { message?: unknown; type?: unknown; code?: unknown; error?: { message?: unknown; type?: unknown } } | null | undefined
  const words =
    typeof body?.message === 'string' ? body.message : typeof body?.error?.message === 'string' ? body.error.message : (error.message ?? '').replace(/^\d{3}\s+/, '')
  const type = [body?.type, body?.error?.type, body?.code].find((value): value is string => typeof value === 'string' && value !== 'error' && value !== String(status)) ?? null
  return { words, type }
}

function statusHint(status: number, judge: Judge, retryAfter: string | null, tries: number): string {
  if (status === 401 || status === 403) return ' Is the key right for this origin?'
  if (status === 404) return judge.provider === 'azure-openai' ? ' Are the endpoint, the deployment (model) and the api-version right?' : ' Are the base URL and the model right?'
  if (status === 429) return ` Still rate limited after ${tries} ${tries === 1 ? 'try' : 'tries'}${retryAfter ? ` (Retry-After: ${retryAfter})` : ''}: lower the concurrency or try later.`
  if (status === 400 && judge.structured) return ' If the model does not take structured output, turn it off for this judge.'
  return tries > 1 ? ` (${tries} tries)` : ''
}

/** A server's or an error's words for a reason: the key removed from the raw text first, then squeezed to a line and cut. */
function wordsOf(text: string, settings: AskSettings): string {
  return modelWords(withoutKey(text, settings.key))
}

function failureReason(error: unknown, guard: GuardedFetch, settings: AskSettings): string {
  const origin = originOf(settings.baseUrl)
  const tries = guard.sent()
  const timeouts = { connectTimeoutMs: settings.timeoutMs, headersTimeoutMs: settings.timeoutMs, bodyTimeoutMs: settings.timeoutMs }
  const sdk = error as SdkError
  if (error instanceof NotAnAnswer) return error.message
  if (isTimeout(error)) {
    return `${origin} did not answer within ${settings.timeoutMs / 1000} s${tries > 1 ? ` (${tries} tries)` : ''}.`
  }
  if (isConnectionFailure(error)) {
    const network = describeNetworkError(sdk.cause ?? error, new URL(settings.baseUrl), timeouts).message
    return tries > 1 ? `${network} (${tries} tries)` : network
  }
  if (typeof sdk?.status === 'number') {
    const { words, type } = serverWords(sdk, sdk.status)
    const said = words ? `: ${wordsOf(words, settings)}` : ''
    const stop = /[.!?]$/.test(said) ? '' : '.'
    return `${origin} answered ${sdk.status}${type ? ` (${type})` : ''}${said}${stop}${statusHint(sdk.status, settings.judge, sdk.headers?.get('x-provider-retry-after') ?? sdk.headers?.get('retry-after') ?? null, tries)}`
  }
  const message = error instanceof Error ? error.message : String(error)
  return `The request to ${origin} failed: ${wordsOf(message, settings)}`
}

/** The key's header as each provider takes it: OpenAI and Anthropic (as SDK 1.14 sends it) a bearer token, Azure `api-key`. */
function authHeader(judge: Judge, key: string | null): { name: string; value: string } | null {
  if (!key) return null
  return judge.provider === 'azure-openai' ? { name: 'api-key', value: key } : { name: 'authorization', value: `Bearer ${key}` }
}

export function judgeClient(judge: Judge, baseUrl: string, key: string | null, meter: CallMeter, options: JudgeClientOptions = {}): JudgeClient {
  const settings: AskSettings = {
    judge,
    baseUrl,
    key: key || null,
    maxOutputTokens: judge.provider !== 'anthropic' && meter.budget.tokens !== undefined ? ANSWER_MAX_TOKENS : null,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetryWaitMs: options.maxRetryWaitMs ?? MAX_RETRY_WAIT_MS,
  }
  const ask = ASKERS[judge.provider](settings)
  const clean = (text: string) => withoutKey(text, settings.key)

  return {
    async grade(prompt, scale, signal) {
      if (signal.aborted) return { ok: false, reason: 'Cancelled before it was sent.' }
      if (!httpOrigin(baseUrl)) return { ok: false, reason: "The judge's base URL is not an http(s) address." }
      // The grade's own controller: the job's cancel aborts it, and so does the guard when it refuses a request.
      const stop = new AbortController()
      const onAbort = () => stop.abort(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
      // Each request reserves this much of a token budget until its answer reports what it took.
      const estimatedTokens = estimateTokens(prompt) + ESTIMATED_OUTPUT_TOKENS
      const guard = guardedFetch({ baseUrl, meter, stop, key: settings.key, maxRetryWaitMs: settings.maxRetryWaitMs, estimatedTokens, auth: authHeader(judge, settings.key) })
      try {
        const answer = await untilAborted(ask(prompt, scale, guard.fetch, stop.signal), stop.signal)
        if (answer.usage) meter.addUsage(answer.usage, estimatedTokens)
        // The key is taken out of the model's raw words, before they are squeezed to a line and cut to 300 characters.
        const read = parseJudgeAnswer(answer.text, scale, clean)
        if (!read.ok) return { ok: false, reason: answer.cut ? `${read.reason} (the answer stopped at the token limit)` : read.reason }
        return { ok: true, grade: read.grade, explanation: read.explanation, usage: answer.usage }
      } catch (error) {
        const refusal = guard.refusal()
        if (refusal?.kind === 'budget') return { ok: false, budget: true, reason: refusal.message }
        if (refusal) return { ok: false, reason: refusal.message }
        if (signal.aborted) return { ok: false, reason: 'Cancelled.' }
        return { ok: false, reason: clean(failureReason(error, guard, settings)) }
      } finally {
        signal.removeEventListener('abort', onAbort)
      }
    },
  }
}
