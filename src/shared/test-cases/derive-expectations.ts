import type { RunOutcome } from './evaluate'
import type { Expectations } from './test-case'

/**
 * "Add test from current query" and "Update snapshot": expectations read off
 * one run, as a starting point the user edits. Each is something the same
 * run passes, so a case made this way passes when run right after.
 */

/** How many top ids a new snapshot records, and how deep "Add test" asks. */
export const SNAPSHOT_DEPTH = 10
/** The first item of the run must stay within this many places. */
export const FIRST_ITEM_WITHIN = 3
export const DEFAULT_MIN_RBO = 0.9
/** The longest id a case may name (the file format's limit). */
const MAX_KEY = 2_000
/** An expected error's message is matched on its start, up to about this many characters. */
const MESSAGE_PREFIX = 60

/**
 * From a run that answered: its status, a total at least as large as it
 * found, its first item within the top 3, and its top 10 as a snapshot.
 */
export function expectationsFromAnswer(outcome: RunOutcome): Expectations {
  const keys = outcome.keys.slice(0, SNAPSHOT_DEPTH)
  // An item keyed by a very long tuple cannot be named in a file: the ranking expectations are left out.
  const nameable = keys.length > 0 && keys.every((key) => key.length <= MAX_KEY)
  return {
    status: outcome.status ?? 200,
    totalAtLeast: outcome.total ?? 0,
    ...(nameable ? { contains: [{ id: keys[0]!, within: FIRST_ITEM_WITHIN }], snapshot: snapshotOf(keys, outcome.labels, DEFAULT_MIN_RBO) } : {}),
  }
}

/**
 * A snapshot of these keys with their names as the run gave them: a later
 * failure can then name an item the service no longer returns. A label that
 * is only its key is no name (''); names are left out when none is known.
 */
function snapshotOf(ids: string[], labels: readonly string[] | undefined, minRbo: number): NonNullable<Expectations['snapshot']> {
  const names = ids.map((id, index) => {
    const label = labels?.[index] ?? ''
    return label === id ? '' : label.slice(0, MAX_KEY)
  })
  return { ids, ...(names.some(Boolean) ? { names } : {}), minRbo }
}

/** From a run the service refused (400, 404…): that status, and the start of its message. */
export function expectationsFromError(status: number, message: string): Expectations {
  const prefix = messagePrefix(message)
  return { status, ...(prefix ? { messageStartsWith: prefix } : {}) }
}

/**
 * The start of a message, cut at a word boundary: what stays when the
 * details at its end (a value echoed back, a list of names) change.
 */
export function messagePrefix(message: string): string {
  const text = message.trim()
  if (text.length <= MESSAGE_PREFIX) return text
  const cut = text.slice(0, MESSAGE_PREFIX)
  const space = cut.lastIndexOf(' ')
  return (space > MESSAGE_PREFIX / 2 ? cut.slice(0, space) : cut).trimEnd()
}

/**
 * The expectations with a snapshot of these keys (and their labels, kept as
 * the items' names): as deep as the snapshot
 * already was (its threshold kept), or the top 10 when the case had none.
 * Null when there is nothing to record.
 */
export function withSnapshot(expect: Expectations, keys: readonly string[], labels?: readonly string[]): Expectations | null {
  const depth = expect.snapshot?.ids.length ?? SNAPSHOT_DEPTH
  const ids = keys.slice(0, depth)
  if (ids.length === 0 || ids.some((key) => key.length > MAX_KEY)) return null
  return { ...expect, snapshot: snapshotOf(ids, labels, expect.snapshot?.minRbo ?? DEFAULT_MIN_RBO) }
}

/** How deep a run must look to record the snapshot `withSnapshot` would. */
export function snapshotDepth(expect: Expectations): number {
  return expect.snapshot?.ids.length ?? SNAPSHOT_DEPTH
}
