import { z } from 'zod'
import { MAX_EXPLANATION } from './judge-notes'
import { ScaleSchema, type Scale } from './query-set'
import { JUDGE_RATER_PREFIX } from './raters'

export { ExplanationSchema, MAX_EXPLANATION, PromptDigestSchema } from './judge-notes'

/**
 * An LLM judge (issue 36): a named rater of kind model that a workspace file
 * keeps under `judges`, so a team shares it (never its key, which lives in
 * the OS keychain, bound to the origin of `baseUrl`). Its grades are
 * judgments of the rater `llm:<name>`, each with the model's explanation and
 * the digest of the prompt that produced it.
 */

/** The wire formats a judge speaks: OpenAI Chat Completions (OpenAI, Ollama's /v1, vLLM, LM Studio), Azure OpenAI, Anthropic Messages. */
export const JUDGE_PROVIDERS = ['openai', 'azure-openai', 'anthropic'] as const
export const JudgeProviderSchema = z.enum(JUDGE_PROVIDERS)
export type JudgeProvider = z.infer<typeof JudgeProviderSchema>

export const JUDGE_PROVIDER_LABELS: Record<JudgeProvider, string> = {
  openai: 'OpenAI Chat Completions (OpenAI, Ollama, vLLM, LM Studio)',
  'azure-openai': 'Azure OpenAI',
  anthropic: 'Anthropic Messages',
}

/** Where each provider answers when the judge names no other base URL. */
export const DEFAULT_BASE_URLS: Record<JudgeProvider, string> = {
  openai: 'https://api.openai.com/v1',
  'azure-openai': 'https://YOUR-RESOURCE.openai.azure.com',
  anthropic: 'https://api.anthropic.com',
}


/** At most this many judges per workspace file. */
export const MAX_JUDGES = 100
export const MAX_JUDGE_PROMPT = 20_000
export const MAX_JUDGE_CONCURRENCY = 16
export const DEFAULT_JUDGE_CONCURRENCY = 4
export const DEFAULT_JUDGE_DEPTH = 10
export const MAX_JUDGE_DEPTH = 1_000
/** The few-shot examples a prompt may hold. */
export const MAX_FEW_SHOT = 20

/**
 * The default prompt. `{{scale}}`, `{{examples}}`, `{{query}}` and `{{item}}`
 * are filled per item (renderJudgePrompt). The demo judge reads the last
 * "Query:" line and the "name:" and "population:" lines of the result, so a
 * template keeping those lines works with it.
 */
export const DEFAULT_JUDGE_PROMPT = [
  'You grade how relevant one search result is to a search query, on this scale:',
  '{{scale}}',
  '',
  '{{examples}}',
  'Query: {{query}}',
  '',
  'Result:',
  '{{item}}',
  '',
  'Answer with the grade that fits best and a short explanation (at most 300 characters).',
].join('\n')

const JudgeNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'has a control character in it')

const BaseUrlSchema = z
  .string()
  .min(1)
  .max(2_000)
  .refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
    } catch {
      return false
    }
  }, 'is not an http(s) address without a user name or password in it')

export const JudgeSchema = z
  .object({
    name: JudgeNameSchema,
    provider: JudgeProviderSchema,
    /** OpenAI: the API root (…/v1); Azure: the resource endpoint; Anthropic: the API root. The key is only ever sent to this origin. */
    baseUrl: BaseUrlSchema,
    /** The model's name; on Azure, the deployment's. */
    model: z.string().min(1).max(200),
    /** Azure's `api-version` (required there). */
    apiVersion: z.string().min(1).max(50).optional(),
    temperature: z.number().min(0).max(2).default(0),
    /** Sent where the provider takes one (OpenAI-compatible servers). */
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    prompt: z.string().min(1).max(MAX_JUDGE_PROMPT).default(DEFAULT_JUDGE_PROMPT),
    /** The item's attributes the prompt shows, in this order; none named: every attribute. */
    fields: z.array(z.string().min(1).max(200)).max(50).default(() => []),
    /** Each field's value is cut to this many characters (a size bound on every prompt). */
    maxFieldChars: z.number().int().min(20).max(20_000).default(1_000),
    /** The grades it may answer; the set's scale when absent (judging a set of another scale is refused). */
    scale: ScaleSchema.optional(),
    /** Ask for a JSON-schema answer where the provider offers it (else the answer's text is parsed and checked). */
    structured: z.boolean().default(true),
    /** People-graded examples taken into the prompt, never from the query being judged. */
    fewShot: z.number().int().min(0).max(MAX_FEW_SHOT).default(0),
    fewShotSeed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
    /** How deep each query's results are judged. */
    depth: z.number().int().min(1).max(MAX_JUDGE_DEPTH).default(DEFAULT_JUDGE_DEPTH),
    concurrency: z.number().int().min(1).max(MAX_JUDGE_CONCURRENCY).default(DEFAULT_JUDGE_CONCURRENCY),
    /** Says it is a stand-in (the demo's `demo-judge`): the window labels its grades so. */
    notes: z.string().max(10_000).optional(),
  })
  .strict()
  .superRefine((judge, context) => {
    if (judge.provider === 'azure-openai' && !judge.apiVersion) {
      context.addIssue({ code: 'custom', path: ['apiVersion'], message: 'is required for Azure OpenAI (the `api-version` the deployment answers, e.g. 2024-10-21)' })
    }
  })

export type Judge = z.infer<typeof JudgeSchema>
export type JudgeInput = z.input<typeof JudgeSchema>

export function judgeRater(judge: Pick<Judge, 'name'>): string {
  return `${JUDGE_RATER_PREFIX}${judge.name}`
}

export function isJudgeRater(rater: string): boolean {
  return rater.startsWith(JUDGE_RATER_PREFIX)
}

/** An item as the judge sees it: its key and the attributes the prompt may show. */
export interface JudgeItem {
  item: string
  fields: Record<string, unknown>
}

/** A people-graded example for the prompt. */
export interface FewShotExample {
  query: string
  fields: Record<string, unknown>
  grade: number
  notes?: string
}

/** One line of text, cut to `max` characters with an ellipsis. */
function fieldText(value: unknown, max: number): string {
  const text = (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)).replace(/\s+/g, ' ').trim()
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** The item's fields as "name: value" lines: those the judge names, in its order (a missing one left out), or all. */
export function itemText(judge: Pick<Judge, 'fields' | 'maxFieldChars'>, fields: Record<string, unknown>): string {
  const names = judge.fields.length > 0 ? judge.fields.filter((name) => name in fields) : Object.keys(fields)
  return names.map((name) => `${name}: ${fieldText(fields[name], judge.maxFieldChars)}`).join('\n')
}

export function scaleLines(scale: Scale): string {
  return scale.map((step) => `${step.grade} = ${step.label}`).join('\n')
}

function examplesText(judge: Pick<Judge, 'fields' | 'maxFieldChars'>, scale: Scale, examples: readonly FewShotExample[]): string {
  if (examples.length === 0) return ''
  const label = (grade: number) => scale.find((step) => step.grade === grade)?.label ?? String(grade)
  const blocks = examples.map((example, index) =>
    [`Example ${index + 1}`, `Query: ${fieldText(example.query, 2_000)}`, 'Result:', itemText(judge, example.fields), `Grade given by a person: ${example.grade} (${label(example.grade)})`]
      .concat(example.notes ? [`Their note: ${fieldText(example.notes, 500)}`] : [])
      .join('\n'),
  )
  return `Examples graded by people:\n\n${blocks.join('\n\n')}\n\n`
}

/**
 * The prompt for one item: the template with its placeholders filled. The
 * same judge, query and item always give the same text, so its digest keys
 * the cache and tells a stale grade.
 */
export function renderJudgePrompt(
  judge: Pick<Judge, 'prompt' | 'fields' | 'maxFieldChars'>,
  scale: Scale,
  query: string,
  item: JudgeItem,
  examples: readonly FewShotExample[] = [],
): string {
  const values: Record<string, string> = {
    scale: scaleLines(scale),
    examples: examplesText(judge, scale, examples),
    query: fieldText(query, 2_000),
    item: itemText(judge, item.fields),
  }
  // One pass, so a value holding "{{query}}" is never filled again.
  return judge.prompt.replace(/\{\{(scale|examples|query|item)\}\}/g, (_, name: string) => values[name]!)
}

/** The structured answer asked of a provider that takes a JSON schema: a grade of the scale and an explanation. */
export function answerJsonSchema(scale: Scale): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      grade: { type: 'integer', enum: scale.map((step) => step.grade) },
      explanation: { type: 'string', maxLength: MAX_EXPLANATION },
    },
    required: ['grade', 'explanation'],
    additionalProperties: false,
  }
}

export type JudgeAnswer = { ok: true; grade: number; explanation: string } | { ok: false; reason: string }

/** The model's words for a failure message: one line, bounded. */
export function modelWords(text: string): string {
  return fieldText(text, MAX_EXPLANATION)
}

/** A grade named in words: "grade" then a little punctuation (never a sign), then a whole number standing alone. */
const NAMED_GRADE = /\bgrade\b[\s:=*_#"'(\[]{0,4}(\d+)\b(?![.,]\d)(?!\s*[/\u2044]\s*\d)(?!\s*[-\u2013\u2212]\s*\d)/i

/**
 * Reads a model's answer: JSON `{ grade, explanation }` (bare, or in a code
 * fence, or the first {…} in the text), else a "grade: N" / "Grade N" in the
 * text, N a whole number standing alone ("2.5", "-1", "2/3" are no grade 2).
 * Text that parses as a JSON object is read as JSON only: one without a
 * grade holds none (its explanation's words are never read for one). A grade
 * off the scale, or none, is a failure quoting the model's words: never a
 * guessed grade.
 *
 * `scrub` is applied to the raw text and to the explanation before they are
 * squeezed to a line and cut to 300 characters, so a secret it removes is
 * never left in part (cut, or with its white space squeezed), and the cut
 * is made after the redaction.
 */
export function parseJudgeAnswer(text: string, scale: Scale, scrub: (text: string) => string = (raw) => raw): JudgeAnswer {
  const grades = scale.map((step) => step.grade)
  const words = scrub(text)
  let grade: unknown
  let explanation = ''
  let isJson = false
  const json = text.match(/\{[\s\S]*\}/)
  if (json) {
    try {
      const value = JSON.parse(json[0]) as unknown
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        isJson = true
        const answer = value as { grade?: unknown; explanation?: unknown }
        grade = typeof answer.grade === 'string' && /^\d+$/.test(answer.grade.trim()) ? Number(answer.grade) : answer.grade
        if (typeof answer.explanation === 'string') explanation = answer.explanation
      }
    } catch {
      // not JSON: read as text below
    }
  }
  if (!isJson) {
    const named = text.match(NAMED_GRADE)
    if (named) {
      grade = Number(named[1])
      explanation = text.replace(named[0], '').trim()
    }
  }
  if (typeof grade !== 'number' || !Number.isInteger(grade)) {
    return { ok: false, reason: `The answer holds no grade: "${modelWords(words)}"` }
  }
  if (!grades.includes(grade)) {
    return { ok: false, reason: `The answer's grade ${grade} is not on the scale (${grades.join(', ')}): "${modelWords(words)}"` }
  }
  return { ok: true, grade, explanation: modelWords(scrub(explanation)) }
}

/** About 4 characters a token: the estimate shown before a run (providers report the real count after). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** The output a grade costs, about: a JSON answer with a short explanation. */
export const ESTIMATED_OUTPUT_TOKENS = 60

/** "about 1,240 calls, 1.1 M input tokens" */
export function estimateText(calls: number, inputTokens: number): string {
  const tokens = inputTokens >= 1_000_000 ? `${(inputTokens / 1_000_000).toFixed(1)} M` : inputTokens >= 10_000 ? `${Math.round(inputTokens / 1_000)} k` : inputTokens.toLocaleString('en-US')
  return `about ${calls.toLocaleString('en-US')} call${calls === 1 ? '' : 's'}, ${tokens} input tokens`
}
