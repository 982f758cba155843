import { scaleOf, type Judgment, type QuerySet, type SetQuery } from '../relevance/query-set'
import type { Rater } from '../relevance/raters'
import { formatPath } from '../query/request-json'
import { describeIssue, keepProtoNames } from './workspace-parse'
import { WORKSPACE_FORMAT, WORKSPACE_VERSION, WorkspaceSchema, type Workspace } from './workspace-schema'

/**
 * A three-way merge of workspace documents (base, ours, theirs) as
 * parseWorkspace reads them: what git's merge driver for `.qxw.json` files
 * runs (cli/commands/merge-workspace-command.ts). Git's line merge conflicts
 * wherever both sides insert a line at the same place: two raters grading the
 * same item (their lines sort next to each other), two new raters in a set's
 * list, a comma after a list's last entry. Here a judgment is a value under
 * its key (set, query, item, rater), so two people rating the same set merge
 * whatever lines they touched; only the same rater grading the same item
 * differently on both sides conflicts.
 *
 * Every other value is merged three-way by JSON equality, entry by entry (a
 * connection by id, a saved query, test case or set by name, a set's query by
 * id, a set's own fields and unknown top-level keys one by one): a value
 * changed on one side takes that side's; changed on both sides to the same
 * value is fine; to different values is a conflict. The result is checked by
 * the schema, so two changes that are each valid but not together (a grade
 * for a query the other side removed) are a conflict too, never a file the
 * app then refuses.
 */

/** On success, the schema's output (as parseWorkspace's): serializeParsed writes it without checking it again. */
export type WorkspaceMergeResult = { ok: true; workspace: Workspace } | { ok: false; conflicts: string[] }

/** `base` undefined: the file was added on both sides (git gives an empty ancestor), so every difference is a conflict. */
export function mergeWorkspaces(base: Workspace | undefined, ours: Workspace, theirs: Workspace): WorkspaceMergeResult {
  const conflicts: string[] = []
  const b: Partial<Workspace> = base ?? {}
  const merged: Record<string, unknown> = { format: WORKSPACE_FORMAT, version: WORKSPACE_VERSION }
  merged.connections = mergeList(b.connections, ours.connections, theirs.connections, (c) => c.id, wholeEntry((id) => `connection "${id}"`, conflicts))
  merged.queries = mergeList(b.queries, ours.queries, theirs.queries, (q) => q.name, wholeEntry((name) => `saved query "${name}"`, conflicts))
  const tests = mergeList(b.tests, ours.tests, theirs.tests, (t) => t.name, wholeEntry((name) => `test case "${name}"`, conflicts))
  if (present(b.tests, ours.tests, theirs.tests, tests)) merged.tests = tests
  const sets = mergeList(b.sets, ours.sets, theirs.sets, (s) => s.name, (key, bs, os, ts) => mergeSet(key, bs, os, ts, conflicts))
  if (present(b.sets, ours.sets, theirs.sets, sets)) merged.sets = sets
  const judges = mergeList(b.judges, ours.judges, theirs.judges, (j) => j.name, wholeEntry((name) => `judge "${name}"`, conflicts))
  if (present(b.judges, ours.judges, theirs.judges, judges)) merged.judges = judges

  // Keys this version does not know, each as a value of its own (the schema keeps them as they were read).
  const known = new Set(['format', 'version', 'connections', 'queries', 'tests', 'sets', 'judges'])
  const extras = new Set([b, ours, theirs].flatMap((side) => Object.keys(side)).filter((key) => !known.has(key)))
  for (const key of extras) {
    const value = mergeValue(own(b, key), own(ours, key), own(theirs, key), `the top-level key "${key}"`, conflicts)
    // defineProperty, not assignment: a key may be `__proto__`.
    if (value !== undefined) Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true })
  }
  if (conflicts.length > 0) return { ok: false, conflicts }

  const checked = WorkspaceSchema.safeParse(merged)
  if (!checked.success) {
    return { ok: false, conflicts: checked.error.issues.slice(0, 10).map((issue) => `the merged file would not be valid: ${describeIssue(issue)}`) }
  }
  // The schema's output, as parseWorkspace gives it (with a `__proto__` parameter put back), so it is written with serializeParsed, not checked twice.
  const badProto = keepProtoNames(checked.data, merged)
  if (badProto) return { ok: false, conflicts: [`the merged file would not be valid: ${formatPath(badProto)}: expected string`] }
  return { ok: true, workspace: checked.data }
}

function own(value: object, key: string): unknown {
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
}

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value))

/** How a side changed a value from the base, in words. */
function change(base: string | undefined, side: string | undefined): string {
  return base === undefined ? 'added' : side === undefined ? 'removed' : 'changed'
}

/** The three-way rule on one value, by JSON equality; a conflict is named by `what` and ours is kept (the merge fails anyway). */
function mergeValue<T>(base: T | undefined, ours: T | undefined, theirs: T | undefined, what: string, conflicts: string[]): T | undefined {
  const [b, o, t] = [json(base), json(ours), json(theirs)]
  if (o === t || t === b) return ours
  if (o === b) return theirs
  const how = change(b, o) === change(b, t) ? `${change(b, o)} on both sides, differently` : `${change(b, o)} on ours, ${change(b, t)} on theirs`
  conflicts.push(`${what}: ${how}`)
  return ours
}

/** An entry merged as one value (a connection, a saved query, a test case). */
function wholeEntry<T>(what: (key: string) => string, conflicts: string[]) {
  return (key: string, base: T | undefined, ours: T | undefined, theirs: T | undefined) => mergeValue(base, ours, theirs, what(key), conflicts)
}

/** Whether an optional list is written: a merged list with entries is; an empty one as the side that changed its presence has it. */
function present(base: unknown, ours: unknown, theirs: unknown, merged: readonly unknown[]): boolean {
  if (merged.length > 0) return true
  return (ours === undefined) === (base === undefined) ? theirs !== undefined : ours !== undefined
}

/**
 * A list of entries keyed by `keyOf`, each merged by `merge` (undefined: not
 * in the result). The order is ours', unless only theirs reordered the
 * entries both kept from the base; an entry one side added goes after the
 * entry it follows on that side.
 */
function mergeList<T>(
  base: readonly T[] | undefined,
  ours: readonly T[] | undefined,
  theirs: readonly T[] | undefined,
  keyOf: (entry: T) => string,
  merge: (key: string, base: T | undefined, ours: T | undefined, theirs: T | undefined) => T | undefined,
): T[] {
  const [b, o, t] = [byKey(base, keyOf), byKey(ours, keyOf), byKey(theirs, keyOf)]
  const result = new Map<string, T>()
  for (const key of new Set([...o.keys(), ...t.keys()])) {
    const value = merge(key, b.get(key), o.get(key), t.get(key))
    if (value !== undefined) result.set(key, value)
  }
  const kept = (keys: Iterable<string>) => [...keys].filter((key) => b.has(key) && o.has(key) && t.has(key))
  const theirsOrder = sameOrder(kept(o.keys()), kept(b.keys())) && !sameOrder(kept(t.keys()), kept(b.keys()))
  const [first, second] = theirsOrder ? [t, o] : [o, t]
  const order = [...first.keys()].filter((key) => result.has(key))
  const placed = new Set(order)
  let previous: string | undefined
  for (const key of second.keys()) {
    if (result.has(key) && !placed.has(key)) {
      order.splice(previous === undefined ? 0 : order.indexOf(previous) + 1, 0, key)
      placed.add(key)
    }
    if (placed.has(key)) previous = key
  }
  return order.map((key) => result.get(key)!)
}

function byKey<T>(list: readonly T[] | undefined, keyOf: (entry: T) => string): Map<string, T> {
  return new Map((list ?? []).map((entry) => [keyOf(entry), entry]))
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index])
}

/** What of a set is not merged as a field of its own: its name is its key; its lists are merged entry by entry. */
const SET_APART = new Set(['name', 'queries', 'raters', 'judgments'])

/**
 * A set: removed on one side and untouched on the other, it is removed; added
 * on both sides, its entries merge as if from an empty base; otherwise field
 * by field (notes, scale, settings, the template…), its queries by id, its
 * raters by name and its judgments by (query, item, rater).
 */
function mergeSet(name: string, base: QuerySet | undefined, ours: QuerySet | undefined, theirs: QuerySet | undefined, conflicts: string[]): QuerySet | undefined {
  if (ours === undefined || theirs === undefined) return mergeValue(base, ours, theirs, `set "${name}"`, conflicts)
  const where = `set "${name}"`
  const merged: Record<string, unknown> = { name }
  const fields = new Set([base, ours, theirs].flatMap((set) => (set ? Object.keys(set) : [])).filter((key) => !SET_APART.has(key)))
  for (const field of fields) {
    const value = mergeValue(base && own(base, field), own(ours, field), own(theirs, field), `${where}: its "${field}"`, conflicts)
    if (value !== undefined) merged[field] = value
  }
  const queries = mergeList(base?.queries, ours.queries, theirs.queries, (query) => query.id, (id, b, o, t) =>
    mergeValue<SetQuery>(b, o, t, `${where}, query "${id}"`, conflicts),
  )
  merged.queries = queries
  const judgments = mergeJudgments(where, base?.judgments ?? [], ours.judgments, theirs.judgments, conflicts)
  merged.judgments = judgments
  const raters = mergeRaters(where, base?.raters, ours, theirs, judgments, conflicts)
  if (raters !== undefined) merged.raters = raters
  const set = merged as QuerySet
  orphans(where, set, conflicts)
  return set
}

const judgmentKey = (judgment: Judgment) => `${judgment.query}\u0000${judgment.item}\u0000${judgment.rater}`
const judgmentValue = (judgment: Judgment | undefined) =>
  judgment === undefined ? undefined : `${judgment.grade}\u0000${judgment.promptDigest ?? ''}\u0000${judgment.explanation ?? ''}`

/** Each (query, item, rater)'s grade three-way: one side's change (added, regraded, removed) is taken; both sides' different changes conflict. */
function mergeJudgments(where: string, base: readonly Judgment[], ours: readonly Judgment[], theirs: readonly Judgment[], conflicts: string[]): Judgment[] {
  const [b, o, t] = [byKey(base, judgmentKey), byKey(ours, judgmentKey), byKey(theirs, judgmentKey)]
  const merged: Judgment[] = []
  const decide = (key: string) => {
    const [bj, oj, tj] = [b.get(key), o.get(key), t.get(key)]
    const [bg, og, tg] = [bj?.grade, oj?.grade, tj?.grade]
    // An LLM judge's grade is its grade, explanation and prompt: one side grading again under a new prompt is that side's change.
    const [bv, ov, tv] = [judgmentValue(bj), judgmentValue(oj), judgmentValue(tj)]
    if (ov === tv || tv === bv) return oj
    if (ov === bv) return tj
    const { query, item, rater } = (oj ?? tj)!
    const grade = (g: number | undefined) => (g === undefined ? 'ungraded' : `graded ${g}`)
    const base = bg === undefined ? 'no grade' : bg
    const how =
      og === undefined
        ? `removed on ours, ${grade(tg)} on theirs`
        : tg === undefined
          ? `${grade(og)} on ours, removed on theirs`
          : og === tg
            ? `${grade(og)} on both, with another explanation or prompt on each`
            : `${grade(og)} on ours, ${grade(tg)} on theirs`
    conflicts.push(`${where}, query "${query}", item "${item}", rater "${rater}": ${how} (base: ${base})`)
    return oj
  }
  for (const key of o.keys()) {
    const judgment = decide(key)
    if (judgment) merged.push(judgment)
  }
  for (const key of t.keys()) {
    if (o.has(key)) continue
    const judgment = decide(key)
    if (judgment) merged.push(judgment)
  }
  return merged
}

/**
 * The set's listed raters, by name: added on either side are kept; a kind
 * changed on one side is taken, on both sides differently a conflict. A rater
 * one side took off the list while the other graded as them stays listed, so
 * their kind (an import, a model) is not lost to ratersOf's default (a person).
 */
function mergeRaters(where: string, base: readonly Rater[] | undefined, ours: QuerySet, theirs: QuerySet, judgments: readonly Judgment[], conflicts: string[]): Rater[] | undefined {
  if (base === undefined && ours.raters === undefined && theirs.raters === undefined) return undefined
  const named = new Set(judgments.map((judgment) => judgment.rater))
  const o = byKey(ours.raters, (rater) => rater.name)
  const t = byKey(theirs.raters, (rater) => rater.name)
  return mergeList(base, ours.raters, theirs.raters, (rater) => rater.name, (name, b, or, tr) => {
    if (or && tr && or.kind !== tr.kind && b?.kind !== or.kind && b?.kind !== tr.kind) {
      conflicts.push(`${where}, rater "${name}": of kind ${or.kind} on ours, ${tr.kind} on theirs`)
      return or
    }
    const value = mergeValue(b, or, tr, `${where}, rater "${name}"`, conflicts)
    return value ?? (named.has(name) ? (o.get(name) ?? t.get(name)) : undefined)
  })
}

/** Judgments the merge left without their query, or off the merged scale: each side's change was valid, together they are not. */
function orphans(where: string, set: QuerySet, conflicts: string[]): void {
  const ids = new Set(set.queries.map((query) => query.id))
  const grades = new Set(scaleOf(set).map((step) => step.grade))
  for (const { query, item, rater, grade } of set.judgments) {
    if (!ids.has(query)) conflicts.push(`${where}, query "${query}", item "${item}", rater "${rater}": graded on one side, while the other removed the query`)
    else if (!grades.has(grade)) conflicts.push(`${where}, query "${query}", item "${item}", rater "${rater}": graded ${grade}, which the merged scale does not have`)
  }
}
