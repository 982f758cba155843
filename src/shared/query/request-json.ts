import type { z } from 'zod'
import { QueryRequestSchema, type QueryRequest } from './model'
import type { Problem } from './validate'

/**
 * Reads the request model from JSON text (the command line's input, a saved
 * workspace, a pasted request), reporting every problem with the path of the
 * field it concerns, in the same `Problem` shape validation uses.
 *
 * JSON.parse keeps the last of two equal keys without a word, so
 * `"parameters": {"q": "a", "q": "b"}` would quietly send `b`. The seed calls
 * a parameter given twice with different values undefined, so the text is
 * scanned for repeated keys first; the same value twice is the same request.
 */

export type RequestJsonResult = { ok: true; request: QueryRequest; base?: string } | { ok: false; problems: Problem[] }

export interface ReadOptions {
  /**
   * Accept a top-level `"base"` (the query URL), as the command line's
   * `parse` prints it next to the request; it is returned apart.
   */
  withBase?: boolean
}

/** Where in a JSON value: object keys and list indexes, outermost first. */
export type Path = readonly (string | number)[]

/** The value at `path` in parsed JSON, or undefined where the path leads nowhere (own keys only). */
export function valueAt(input: unknown, path: Path): unknown {
  let at = input
  for (const part of path) {
    if (at === null || typeof at !== 'object') return undefined
    at = Object.hasOwn(at, part) ? (at as Record<string | number, unknown>)[part] : undefined
  }
  return at
}

export function formatPath(path: Path): string {
  let out = ''
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`
  return out
}

/** `Step 2 (search): parameter` for a key of steps[1].parameters, read from the parsed input. */
function stepLabel(path: Path, input: unknown): string | null {
  const [first, index, record] = path
  if (first !== 'steps' || typeof index !== 'number' || path.length !== 3) return null
  const endpoint = valueAt(input, ['steps', index, 'endpoint'])
  const step = typeof endpoint === 'string' ? `Step ${index + 1} (${endpoint})` : `Step ${index + 1}`
  if (record === 'parameters') return `${step}: parameter`
  if (record === 'context') return `${step}: context parameter`
  return null
}

/** Walks JSON text already known to be valid, reporting keys given twice with different values. */
function repeatedKeys(text: string, input: unknown): Problem[] {
  const problems: Problem[] = []
  let i = 0
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const string = (): string => {
    const start = i
    i++
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
    return JSON.parse(text.slice(start, i)) as string
  }
  const value = (path: (string | number)[]): void => {
    space()
    const ch = text[i]
    if (ch === '"') {
      string()
      return
    }
    if (ch === '{' || ch === '[') {
      const isObject = ch === '{'
      const seen = new Map<string, string>()
      i++
      space()
      if (text[i] === (isObject ? '}' : ']')) {
        i++
        return
      }
      for (let index = 0; ; index++) {
        space()
        let key: string | number = index
        if (isObject) {
          key = string()
          space()
          i++ // the colon
          space()
        }
        const start = i
        value([...path, key])
        if (typeof key === 'string') {
          const raw = text.slice(start, i)
          const earlier = seen.get(key)
          if (earlier === undefined) seen.set(key, raw)
          else if (JSON.stringify(JSON.parse(earlier)) !== JSON.stringify(JSON.parse(raw))) {
            const label = stepLabel(path, input)
            const what = label ? `${label} "${key}"` : `"${key}"`
            problems.push({ field: formatPath([...path, key]), message: `${what} is given twice with different values (${earlier} and ${raw})` })
          }
          if (key === '__proto__') {
            problems.push({
              field: formatPath([...path, key]),
              message: 'the name "__proto__" cannot be read from JSON safely; use a URL (parseUrl) for such a name',
            })
          }
        }
        space()
        if (text[i] === ',') {
          i++
          continue
        }
        i++ // the closing bracket
        return
      }
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++
  }
  value([])
  return problems
}

function issueProblems(issue: z.core.$ZodIssue, input: unknown, base: Path): Problem[] {
  const path = [...base, ...issue.path.filter((part): part is string | number => typeof part !== 'symbol')]
  const field = formatPath(path) || '(request)'
  if (issue.code === 'invalid_union') {
    // A step is one of two shapes; the keys it has say which one was meant.
    const step = valueAt(input, path)
    const branch =
      step !== null && typeof step === 'object' ? ('endpoint' in step ? 0 : 'context' in step ? 1 : -1) : -1
    const chosen = branch >= 0 ? issue.errors[branch] : undefined
    if (chosen) return chosen.flatMap((inner) => issueProblems(inner, input, path))
    return [{ field, message: 'a step is either an endpoint step {"endpoint", "parameters"} or a context step {"context"}' }]
  }
  if (issue.code === 'invalid_type' && valueAt(input, path) === undefined) {
    return [{ field, message: `is missing (expected ${issue.expected})` }]
  }
  return [{ field, message: issue.message.replace(/^Invalid input: /, '') }]
}

export function checkRequest(input: unknown, options: ReadOptions = {}): RequestJsonResult {
  let base: string | undefined
  const problems: Problem[] = []
  let request = input
  if (options.withBase && input !== null && typeof input === 'object' && !Array.isArray(input) && Object.hasOwn(input, 'base')) {
    const { base: given, ...rest } = input as Record<string, unknown>
    if (typeof given === 'string') base = given
    else problems.push({ field: 'base', message: `expected string (the query URL), received ${given === null ? 'null' : typeof given}` })
    request = rest
  }
  const parsed = QueryRequestSchema.safeParse(request)
  if (parsed.success && problems.length === 0) return { ok: true, request: parsed.data, ...(base === undefined ? {} : { base }) }
  if (!parsed.success) problems.push(...parsed.error.issues.flatMap((issue) => issueProblems(issue, request, [])))
  return { ok: false, problems }
}

export function readRequestJson(text: string, options: ReadOptions = {}): RequestJsonResult {
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [{ field: '(json)', message: `not valid JSON: ${(error as Error).message}` }] }
  }
  const repeated = repeatedKeys(text, input)
  const checked = checkRequest(input, options)
  if (repeated.length === 0) return checked
  return { ok: false, problems: [...repeated, ...(checked.ok ? [] : checked.problems)] }
}
