import type { IncomingMessage } from 'node:http'
import { estimateTokens } from '../../shared/relevance/llm-judge'
import { ruleQuery } from '../judge/city-rule'
import {
  BUSY_EVERY,
  DEMO_JUDGE_BUSY,
  DEMO_MODELS,
  answerText,
  demoGrade,
  isDemoModel,
  readPrompt,
  unreadVerdict,
  type DemoModel,
} from '../judge/demo-judge'
import { ServiceError } from '../refusal'
import { readBody } from './body'
import { jsonReply, type Reply } from './reply'

/**
 * The demo judge's OpenAI-compatible routes, on the service's own origin:
 * `GET /v1/models` (and `/v1/models/<id>`) and `POST /v1/chat/completions`,
 * in the Chat Completions wire format as the `openai` package sends and reads
 * it, errors included (`{ error: { message, type, param, code } }`). Like
 * Ollama's `/v1`, any Bearer key or none is accepted; the key is never read,
 * kept or logged.
 */

export const JUDGE_PATH = '/v1'

/** A prompt is bounded by the judge's settings (20,000 characters, few-shot examples on top); room for that, JSON-escaped. */
export const JUDGE_BODY_LIMIT_BYTES = 512 * 1024

export interface JudgeService {
  /** The population of the dataset's most populous place with this folded name; 0 when none (city-rule.ts's `largest`). */
  largest(name: string, wanted: () => boolean): Promise<number>
  /** Milliseconds since the epoch, for `created`. */
  now(): number
}

/** The service's judge: its lookups, and the counters its answers number from (one per service). */
export interface JudgeHost {
  service: JudgeService
  calls: { completions: number; busy: number }
}

export function createJudgeHost(service: JudgeService): JudgeHost {
  return { service, calls: { completions: 0, busy: 0 } }
}

type ErrorType = 'invalid_request_error' | 'not_found_error' | 'requests' | 'server_error'

/** OpenAI's error body: what the SDK's APIError reads (`error.message`, `error.type`, `error.param`, `error.code`). */
function openAiError(status: number, type: ErrorType, message: string, param: string | null = null, code: string | null = null, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { error: { message, type, param, code } }, headers)
}

const invalid = (message: string, param: string | null = null, code: string | null = null) => openAiError(400, 'invalid_request_error', message, param, code)

const MODEL_CREATED = 1_767_225_600 // 2026-01-01: fixed, so the list never changes between runs

function modelEntry(model: (typeof DEMO_MODELS)[number]) {
  return { id: model.id, object: 'model', created: MODEL_CREATED, owned_by: 'query-explorer-demo', description: model.description }
}

const MODEL_NAMES = DEMO_MODELS.map((model) => model.id).join(', ')

/** A message's text: a string, or the text parts of a list of content parts. */
function messageText(message: unknown, index: number): string | Reply {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return invalid(`messages[${index}] must be an object with a role and content.`, `messages.[${index}]`)
  const { role, content } = message as { role?: unknown; content?: unknown }
  if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(role as string)) {
    return invalid(`messages[${index}].role must be one of system, developer, user, assistant or tool.`, `messages.[${index}].role`)
  }
  if (typeof content === 'string') return content
  if (content === null || content === undefined) return ''
  if (Array.isArray(content)) {
    const texts: string[] = []
    for (const [at, part] of content.entries()) {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown }
      if (type !== 'text' || typeof text !== 'string') return invalid(`messages[${index}].content[${at}] must be a text part ({ type: "text", text }): the demo judge reads text only.`, `messages.[${index}].content.[${at}]`)
      texts.push(text)
    }
    return texts.join('\n')
  }
  return invalid(`messages[${index}].content must be a string or a list of text parts.`, `messages.[${index}].content`)
}

interface Completion {
  model: DemoModel
  messages: { role: string; text: string }[]
  json: boolean
}

/** The request's fields the demo reads, checked as OpenAI checks them; a Reply when refused. */
function readCompletion(body: unknown): Completion | Reply {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return invalid('The request body must be a JSON object.')
  const request = body as Record<string, unknown>
  if (typeof request.model !== 'string' || request.model === '') return invalid('You must provide a model parameter.', 'model')
  if (!isDemoModel(request.model)) {
    return openAiError(404, 'invalid_request_error', `The model \`${request.model.slice(0, 100)}\` does not exist: the demo service offers ${MODEL_NAMES}.`, 'model', 'model_not_found')
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) return invalid('messages must be a non-empty list of messages.', 'messages')
  if (request.stream === true) return invalid('stream is not offered by the demo judge: send stream false or leave it out.', 'stream')
  if (request.n !== undefined && request.n !== null && request.n !== 1) return invalid('n must be 1: the demo judge gives one answer a request.', 'n')
  const temperature = request.temperature
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) {
    return invalid('temperature must be a number from 0 to 2.', 'temperature')
  }
  if (request.seed !== undefined && request.seed !== null && !Number.isInteger(request.seed)) return invalid('seed must be a whole number.', 'seed')
  let json = false
  const format = request.response_format as { type?: unknown; json_schema?: unknown } | undefined | null
  if (format !== undefined && format !== null) {
    if (typeof format !== 'object' || !['text', 'json_object', 'json_schema'].includes(format.type as string)) {
      return invalid('response_format.type must be text, json_object or json_schema.', 'response_format.type')
    }
    if (format.type === 'json_schema') {
      const schema = format.json_schema as { name?: unknown } | undefined
      if (!schema || typeof schema !== 'object' || typeof schema.name !== 'string' || schema.name === '') {
        return invalid('response_format.json_schema must be an object with a name (and the schema).', 'response_format.json_schema')
      }
    }
    json = format.type !== 'text'
  }
  const messages: Completion['messages'] = []
  for (const [index, message] of request.messages.entries()) {
    const text = messageText(message, index)
    if (typeof text !== 'string') return text
    messages.push({ role: (message as { role: string }).role, text })
  }
  return { model: request.model, messages, json }
}

async function completion(host: JudgeHost, request: IncomingMessage, wanted: () => boolean): Promise<Reply> {
  let raw: Buffer
  try {
    raw = await readBody(request, JUDGE_BODY_LIMIT_BYTES)
  } catch (error) {
    if (error instanceof ServiceError) return openAiError(error.status, 'invalid_request_error', error.message, null, null, error.headers)
    throw error
  }
  let body: unknown
  try {
    body = JSON.parse(raw.toString('utf8'))
  } catch {
    return invalid('We could not parse the JSON body of your request: send a JSON object (model, messages, …).')
  }
  const read = readCompletion(body)
  if ('status' in read) return read
  const { calls } = host
  if (read.model === DEMO_JUDGE_BUSY && ++calls.busy % BUSY_EVERY === 0) {
    return openAiError(
      429,
      'requests',
      `Rate limit reached for ${DEMO_JUDGE_BUSY}: the demo answers 429 to every ${BUSY_EVERY}th call made to it, to show retries. Try again in 1 second.`,
      null,
      'rate_limit_exceeded',
      { 'Retry-After': '1' },
    )
  }
  // The prompt is the last user message (a system message, if any, sets the task).
  const prompt = [...read.messages].reverse().find((message) => message.role === 'user')?.text ?? ''
  const reading = readPrompt(prompt)
  let verdict
  if (reading.ok) {
    let largest: number
    try {
      largest = await host.service.largest(ruleQuery(reading.facts.query), wanted)
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      return openAiError(error.status >= 500 ? error.status : 503, 'server_error', `The demo judge could not look the name up: ${error.message}`, null, null, error.headers)
    }
    verdict = demoGrade(reading.facts, largest, read.model)
  } else {
    verdict = unreadVerdict(reading.missing)
  }
  const content = answerText(verdict, read.json)
  const number = ++calls.completions
  const promptTokens = estimateTokens(read.messages.map((message) => message.text).join(''))
  const completionTokens = estimateTokens(content)
  return jsonReply(
    200,
    {
      id: `chatcmpl-demo-${number}`,
      object: 'chat.completion',
      created: Math.floor(host.service.now() / 1000),
      model: read.model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      system_fingerprint: null,
    },
    { 'x-request-id': `req_demo_${number}` },
  )
}

function methodNotAllowed(method: string | undefined, path: string, allowed: string): Reply {
  return openAiError(405, 'invalid_request_error', `Method ${method ?? ''} is not allowed on ${path}: use ${allowed}.`, null, 'method_not_allowed', { Allow: allowed })
}

function decodedOrRaw(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Answers a request whose path starts with /v1/ (or is /v1). */
export async function answerJudge(host: JudgeHost, request: IncomingMessage, path: string, wanted: () => boolean): Promise<Reply> {
  const route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  if (route === `${JUDGE_PATH}/chat/completions`) {
    if (request.method !== 'POST') return methodNotAllowed(request.method, route, 'POST')
    return completion(host, request, wanted)
  }
  if (route === `${JUDGE_PATH}/models` || route.startsWith(`${JUDGE_PATH}/models/`)) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, route, 'GET')
    if (route === `${JUDGE_PATH}/models`) return jsonReply(200, { object: 'list', data: DEMO_MODELS.map(modelEntry) })
    const id = decodedOrRaw(route.slice(`${JUDGE_PATH}/models/`.length))
    const model = DEMO_MODELS.find((known) => known.id === id)
    if (!model) return openAiError(404, 'invalid_request_error', `The model \`${id.slice(0, 100)}\` does not exist: the demo service offers ${MODEL_NAMES}.`, 'model', 'model_not_found')
    return jsonReply(200, modelEntry(model))
  }
  return openAiError(404, 'invalid_request_error', `Invalid URL (${request.method ?? ''} ${route.slice(0, 200)}): the demo judge answers POST ${JUDGE_PATH}/chat/completions and GET ${JUDGE_PATH}/models.`)
}
