import type { z } from 'zod'
import { formatPath, valueAt, type Path } from '../query/request-json'
import type { Problem } from '../query/validate'
import { ExpectationsSchema, type Expectations } from './test-case'

/**
 * A case's expectations as the user edits them in the Tests region: JSON
 * text written for reading (one expectation a line, short lists kept on one
 * line), and read back with every problem naming its field and the rule it
 * breaks, as the user types, before anything goes to the main process.
 */

export type ExpectationsInput = { ok: true; expect: Expectations } | { ok: false; problems: Problem[] }

/** A value this long or shorter stays on one line. */
const LINE = 72

const SHAPE = ExpectationsSchema.shape
/** The fields each level of the expectations may have, from the schema itself (so the hints never drift from it). */
const KNOWN: Record<string, readonly string[]> = {
  '': Object.keys(SHAPE),
  contains: Object.keys(SHAPE.contains.unwrap().element.shape),
  rankAtMost: Object.keys(SHAPE.rankAtMost.unwrap().element.shape),
  absent: Object.keys(SHAPE.absent.unwrap().element.shape),
  firstItem: Object.keys(SHAPE.firstItem.unwrap().element.shape),
  snapshot: Object.keys(SHAPE.snapshot.unwrap().shape),
}

export const EXPECTATION_KEYS: readonly string[] = KNOWN['']!

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, each]) => each !== undefined)
      .map(([key, each]) => `${JSON.stringify(key)}: ${inline(each)}`)
      .join(', ')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

function block(value: unknown, indent: string, room: number): string {
  const flat = inline(value)
  if (flat.length <= room || value === null || typeof value !== 'object') return flat
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((each) => `${inner}${block(each, inner, LINE - inner.length)}`).join(',\n')}\n${indent}]`
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, each]) => each !== undefined)
  if (entries.length === 0) return '{}'
  const lines = entries.map(([key, each]) => {
    const head = `${inner}${JSON.stringify(key)}: `
    return `${head}${block(each, inner, LINE - head.length)}`
  })
  return `{\n${lines.join(',\n')}\n${indent}}`
}

/** The expectations as the editor shows them: the schema's key order, each expectation on its own line. */
export function expectationsText(expect: Expectations): string {
  const ordered: Record<string, unknown> = {}
  for (const key of EXPECTATION_KEYS) if (expect[key as keyof Expectations] !== undefined) ordered[key] = expect[key as keyof Expectations]
  const entries = Object.keys(ordered)
  if (entries.length === 0) return '{}'
  return `{\n${entries.map((key) => `  ${JSON.stringify(key)}: ${block(ordered[key], '  ', LINE - key.length - 6)}`).join(',\n')}\n}`
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return Number.isInteger(value) ? 'a number' : 'a decimal number'
  return typeof value === 'boolean' ? 'true/false' : typeof value
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string in double quotes',
  array: 'a list [ … ]',
  object: 'an object { … }',
  boolean: 'true or false',
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The level a path's unknown key belongs to, for the list of the fields it may have: `contains[2]` → `contains`. */
function levelOf(path: Path): string {
  const named = path.filter((part): part is string => typeof part === 'string')
  return named.length === 0 ? '' : named[0]!
}

function issueProblems(issue: z.core.$ZodIssue, input: unknown): Problem[] {
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol')
  const field = formatPath(path) || '(expectations)'
  const at = valueAt(input, path)
  switch (issue.code) {
    case 'unrecognized_keys': {
      const level = levelOf(path)
      const known = (KNOWN[level] ?? []).join(', ')
      const what = level === '' ? 'is not an expectation' : 'is not a field here'
      return issue.keys.map((key) => ({ field: formatPath([...path, key]), message: `${what} (known: ${known})` }))
    }
    case 'invalid_type': {
      const wanted = EXPECTED[issue.expected] ?? issue.expected
      if (at === undefined) return [{ field, message: `is missing (${wanted})` }]
      if (path.length === 0) return [{ field, message: `must be a JSON object such as {"status": 200}, not ${kindOf(at)}` }]
      return [{ field, message: `must be ${wanted}, not ${kindOf(at)}` }]
    }
    case 'too_small': {
      const min = Number(issue.minimum)
      if (issue.origin === 'string') return [{ field, message: min <= 1 ? 'must not be empty' : `needs at least ${plural(min, 'character', 'characters')}` }]
      if (issue.origin === 'array') return [{ field, message: `needs at least ${plural(min, 'entry', 'entries')}` }]
      return [{ field, message: issue.inclusive ? `must be at least ${min}` : `must be more than ${min}` }]
    }
    case 'too_big': {
      const max = Number(issue.maximum)
      if (issue.origin === 'string') return [{ field, message: `may have at most ${plural(max, 'character', 'characters')}` }]
      if (issue.origin === 'array') return [{ field, message: `may have at most ${plural(max, 'entry', 'entries')}` }]
      return [{ field, message: issue.inclusive ? `must be at most ${max}` : `must be less than ${max}` }]
    }
    case 'invalid_union':
      return [{ field, message: `must be a string, a number, true/false or null, not ${kindOf(at)}` }]
    default:
      return [{ field, message: issue.message.replace(/^Invalid input: /, '') }]
  }
}

/** Expectations that are each well formed but can never pass together. */
function contradictions(expect: Expectations): Problem[] {
  const problems: Problem[] = []
  if (expect.totalAtLeast !== undefined && expect.totalAtMost !== undefined && expect.totalAtLeast > expect.totalAtMost) {
    problems.push({ field: 'totalAtMost', message: `is below totalAtLeast (${expect.totalAtLeast}): no total passes both` })
  }
  if (expect.messageStartsWith !== undefined && (expect.status ?? 200) < 400) {
    problems.push({
      field: 'messageStartsWith',
      message: `goes with an error status (400 or above in "status"): an answer with status ${expect.status ?? 200} has no message`,
    })
  }
  return problems
}

/** Reads the editor's text: the expectations, or every problem with the field it concerns and the rule it breaks. */
export function readExpectations(text: string): ExpectationsInput {
  if (text.trim() === '') return { ok: false, problems: [{ field: '(expectations)', message: 'is empty: write a JSON object, such as {"status": 200}' }] }
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [{ field: '(json)', message: `not valid JSON: ${(error as Error).message}` }] }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, problems: [{ field: '(expectations)', message: `must be a JSON object such as {"status": 200}, not ${kindOf(input)}` }] }
  }
  const parsed = ExpectationsSchema.safeParse(input)
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.flatMap((issue) => issueProblems(issue, input)) }
  const problems = contradictions(parsed.data)
  return problems.length > 0 ? { ok: false, problems } : { ok: true, expect: parsed.data }
}

/** One problem as a line: "contains[0].within: must be at most 100". */
export function problemText(problem: Problem): string {
  return `${problem.field}: ${problem.message}`
}
