import { z } from 'zod'
import { compareRankings, RankChangeSchema } from '../compare/rank-metrics'
import { depthNeeded, type Expectations } from './test-case'

/** What one run of a case's query gave: enough to judge every kind of expectation. */
export interface RunOutcome {
  /** The HTTP status; null when no answer came (network, timeout). */
  status: number | null
  /** The server's message for an error status, or why no answer came. */
  message: string | null
  /** The statistics total, when asked. */
  total: number | null
  /** The top items, best first: their keys (see item-key.ts) and the first item's fields. */
  keys: string[]
  labels: string[]
  firstItem: unknown
  durationMs: number
}

export const CheckResultSchema = z.object({
  /** The expectation in words: "status 200", "total ≥ 100", "Paris (2988507) at rank 1 or better". */
  what: z.string(),
  /**
   * For a check on one item's rank: the item as a person knows it, "Paris (2988507)" (its id
   * alone when no name is known). Its failure then reads "<item> expected <expected>, <actual>".
   */
  item: z.string().optional(),
  passed: z.boolean(),
  expected: z.string(),
  actual: z.string(),
  /** For a snapshot that failed: the rank diff against the recorded ids… */
  changes: z.array(RankChangeSchema).optional(),
  /** …and the labels of the items this run saw, by key (recorded ids have none). */
  labels: z.record(z.string(), z.string()).optional(),
})

export type CheckResult = z.infer<typeof CheckResultSchema>

const number = (value: number) => value.toLocaleString('en-US')

/** Reads `id`, `class`, an attribute or a dotted path from the first item's first column, or the item's own `rank`/`probability`. */
export function fieldOf(item: unknown, path: string): unknown {
  if (item === null || typeof item !== 'object') return undefined
  const record = item as { rank?: unknown; probability?: unknown; tuple?: unknown }
  if (path === 'rank' || path === 'probability') return record[path]
  const tuple = record.tuple
  const first = Array.isArray(tuple) ? tuple[0] : tuple && typeof tuple === 'object' ? (tuple as Record<string, unknown>)['1'] : undefined
  if (first === null || typeof first !== 'object') return path === '1' ? first : undefined
  const parts = path.split('.')
  const head = parts[0]!
  const object = first as { attributes?: Record<string, unknown> } & Record<string, unknown>
  let value: unknown = head === 'id' || head === 'class' ? object[head] : (object.attributes?.[head] ?? object[head])
  for (const part of parts.slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    const next = value as { attributes?: Record<string, unknown> } & Record<string, unknown>
    value = next[part] ?? next.attributes?.[part]
  }
  return value
}

function show(value: unknown): string {
  if (value === undefined) return '(no such field)'
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)
}

/**
 * The names the case knows, by id: the snapshot's (as recorded) and this
 * run's labels (as the service names the items now, so these win). An
 * item's label that is only its key is no name.
 */
function namesOf(expect: Expectations, outcome: RunOutcome): Map<string, string> {
  const names = new Map<string, string>()
  const { ids = [], names: recorded = [] } = expect.snapshot ?? {}
  ids.forEach((id, index) => {
    const name = recorded[index]
    if (name && name !== id) names.set(id, name)
  })
  outcome.keys.forEach((key, index) => {
    const label = outcome.labels[index]
    if (label && label !== key) names.set(key, label)
  })
  return names
}

/** "San Potito Sannitico (3167796)", or the id alone when it has no name. */
export function itemText(id: string, name: string | undefined): string {
  return name ? `${name} (${id})` : id
}

function rankOf(outcome: RunOutcome, id: string): number | null {
  const index = outcome.keys.indexOf(id)
  return index === -1 ? null : index + 1
}

function equalValues(actual: unknown, expected: string | number | boolean | null): boolean {
  if (Array.isArray(actual) && typeof expected === 'string') return actual.join('|') === expected
  return actual === expected || (typeof actual === 'number' && typeof expected === 'string' && String(actual) === expected)
}

/**
 * Judges one run against a case's expectations. When the status is not the
 * expected one, only that is reported: the other checks would judge an
 * answer that is not there.
 */
export function evaluate(expect: Expectations, outcome: RunOutcome): CheckResult[] {
  const wantedStatus = expect.status ?? 200
  const statusCheck: CheckResult = {
    what: `status ${wantedStatus}`,
    passed: outcome.status === wantedStatus,
    expected: String(wantedStatus),
    actual: outcome.status === null ? `no answer: ${outcome.message ?? 'unknown'}` : `${outcome.status}${outcome.message ? `: ${outcome.message}` : ''}`,
  }
  if (!statusCheck.passed) return [statusCheck]
  const checks: CheckResult[] = [statusCheck]
  if (expect.messageStartsWith !== undefined) {
    const message = outcome.message ?? ''
    checks.push({
      what: `message starts with ${JSON.stringify(expect.messageStartsWith)}`,
      passed: message.startsWith(expect.messageStartsWith),
      expected: JSON.stringify(expect.messageStartsWith),
      actual: JSON.stringify(message),
    })
  }
  const total = outcome.total
  if (expect.totalAtLeast !== undefined) {
    checks.push({
      what: `total ≥ ${number(expect.totalAtLeast)}`,
      passed: total !== null && total >= expect.totalAtLeast,
      expected: `≥ ${number(expect.totalAtLeast)}`,
      actual: total === null ? '(no total)' : number(total),
    })
  }
  if (expect.totalAtMost !== undefined) {
    checks.push({
      what: `total ≤ ${number(expect.totalAtMost)}`,
      passed: total !== null && total <= expect.totalAtMost,
      expected: `≤ ${number(expect.totalAtMost)}`,
      actual: total === null ? '(no total)' : number(total),
    })
  }
  const names = namesOf(expect, outcome)
  const looked = outcome.keys.length
  // Fewer items than asked for is all the service has: "not among the 9 results" rather than "not in the first 9".
  const missing = looked === 0 ? 'not found: the answer had no results' : looked < depthNeeded(expect) ? `not among the ${looked} results` : `not in the first ${looked}`
  const found = (rank: number | null) => (rank === null ? missing : `found at rank ${rank}`)
  const first = (within: number) => (within === 1 ? 'at rank 1' : `in the first ${within}`)
  const rankCheck = (id: string, what: (item: string) => string, expected: string, passed: (rank: number | null) => boolean): CheckResult => {
    const rank = rankOf(outcome, id)
    const item = itemText(id, names.get(id))
    return { what: what(item), item, passed: passed(rank), expected, actual: found(rank) }
  }
  for (const { id, within } of expect.contains ?? []) {
    checks.push(rankCheck(id, (item) => `${item} ${first(within)}`, first(within), (rank) => rank !== null && rank <= within))
  }
  for (const { id, rank: wanted } of expect.rankAtMost ?? []) {
    const expected = `at rank ${wanted} or better`
    checks.push(rankCheck(id, (item) => `${item} ${expected}`, expected, (rank) => rank !== null && rank <= wanted))
  }
  for (const { id, within } of expect.absent ?? []) {
    const expected = `not in the first ${within}`
    checks.push(rankCheck(id, (item) => `${item} ${expected}`, expected, (rank) => rank === null || rank > within))
  }
  for (const { field, equals } of expect.firstItem ?? []) {
    const value = outcome.keys.length === 0 ? undefined : fieldOf(outcome.firstItem, field)
    checks.push({
      what: `first item's ${field} = ${show(equals)}`,
      passed: outcome.keys.length > 0 && equalValues(value, equals),
      expected: show(equals),
      actual: outcome.keys.length === 0 ? '(no items)' : show(value),
    })
  }
  if (expect.durationAtMostMs !== undefined) {
    checks.push({
      what: `duration ≤ ${number(expect.durationAtMostMs)} ms`,
      passed: outcome.durationMs <= expect.durationAtMostMs,
      expected: `≤ ${number(expect.durationAtMostMs)} ms`,
      actual: `${number(Math.round(outcome.durationMs))} ms`,
    })
  }
  if (expect.snapshot) {
    const { ids, minRbo } = expect.snapshot
    const comparison = compareRankings(ids, outcome.keys, ids.length)
    const passed = comparison.rbo >= minRbo
    checks.push({
      what: `snapshot of the top ${ids.length} (RBO ≥ ${minRbo})`,
      passed,
      expected: `RBO ≥ ${minRbo}`,
      actual: `RBO ${comparison.rbo.toFixed(3)}, ${comparison.overlap} of ${ids.length} shared`,
      ...(passed ? {} : { changes: comparison.changes, labels: Object.fromEntries(comparison.changes.flatMap((change) => (names.has(change.key) ? [[change.key, names.get(change.key)!]] : []))) }),
    })
  }
  return checks
}
