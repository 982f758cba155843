import { ExplorerError } from '../ipc/errors'
import type { Workspace } from '../workspace/workspace-file'
import type { JudgmentImport } from './judgment-files'
import { scaleOf, scaleText, withJudgeNotes, type Judgment, type QuerySet, type SetQuery } from './query-set'
import { ADJUDICATION_RATER, ratersOf } from './raters'

/**
 * The edits a user makes to the open workspace's query sets, as functions
 * from one workspace to the next (as test-edits.ts does for test cases): a
 * refused edit leaves the document as it was, and every other key is carried along.
 */

export function setsOf(workspace: Pick<Workspace, 'sets'>): QuerySet[] {
  return workspace.sets ?? []
}

export function requireSet(workspace: Pick<Workspace, 'sets'>, name: string): QuerySet {
  const found = setsOf(workspace).find((set) => set.name === name)
  if (!found) throw new ExplorerError('not_found', `There is no query set named "${name}" in this workspace.`)
  return found
}

function replaced(workspace: Workspace, name: string, next: QuerySet | null): Workspace {
  const sets = setsOf(workspace).flatMap((set) => (set.name === name ? (next ? [next] : []) : [set]))
  return { ...workspace, sets }
}

/**
 * Adds a set, or replaces the one called `previousName` (a rename when the
 * names differ). Judgments of queries the set no longer has go with them.
 */
export function withSet(workspace: Workspace, set: QuerySet, previousName?: string): Workspace {
  const name = set.name.trim()
  if (!name) throw new ExplorerError('validation', 'Name: give the query set a name.', { problems: [{ field: 'name', message: 'empty' }] })
  const clash = setsOf(workspace).find((each) => each.name === name)
  if (clash && name !== previousName) {
    throw new ExplorerError('validation', `A query set named "${name}" exists; choose another name.`, { problems: [{ field: 'name', message: `"${name}" is taken` }] })
  }
  const ids = new Set(set.queries.map((query) => query.id))
  const next: QuerySet = { ...set, name, judgments: set.judgments.filter((judgment) => ids.has(judgment.query)) }
  if (previousName === undefined) return { ...workspace, sets: [...setsOf(workspace), next] }
  requireSet(workspace, previousName)
  return replaced(workspace, previousName, next)
}

export function withoutSet(workspace: Workspace, name: string): Workspace {
  requireSet(workspace, name)
  return replaced(workspace, name, null)
}

/** One rater's rating: `grade` null clears that rater's grade. A grade off the set's scale is refused, naming the scale. An LLM judge's keeps its explanation and prompt digest. */
export function withRating(
  workspace: Workspace,
  setName: string,
  rating: { query: string; item: string; rater: string; grade: number | null; explanation?: string | undefined; promptDigest?: string | undefined },
): Workspace {
  const set = requireSet(workspace, setName)
  if (!set.queries.some((query) => query.id === rating.query)) throw new ExplorerError('not_found', `The query set "${setName}" has no query with the id "${rating.query}".`)
  const scale = scaleOf(set)
  if (rating.grade !== null && !scale.some((step) => step.grade === rating.grade)) {
    throw new ExplorerError('validation', `grade: ${rating.grade} is not a grade of the set's scale (${scaleText(scale)}).`)
  }
  const others = set.judgments.filter((judgment) => !(judgment.query === rating.query && judgment.item === rating.item && judgment.rater === rating.rater))
  const judgment: Judgment | null =
    rating.grade === null ? null : withJudgeNotes({ query: rating.query, item: rating.item, rater: rating.rater, grade: rating.grade }, rating.explanation, rating.promptDigest)
  return replaced(workspace, setName, { ...set, judgments: judgment ? [...others, judgment] : others })
}

/**
 * An import as a whole: its new queries join the set, its judgments replace
 * the same rater's for the same query and item, never another rater's; its
 * raters join the set's list (as kind import, unless the set names them
 * already; the reserved name "adjudication" as the adjudicator).
 */
export function withImport(workspace: Workspace, setName: string, imported: JudgmentImport): Workspace {
  const set = requireSet(workspace, setName)
  const queries: SetQuery[] = [...set.queries, ...imported.newQueries]
  const keyOf = (judgment: Judgment) => `${judgment.query}\u0000${judgment.item}\u0000${judgment.rater}`
  const incoming = new Set(imported.judgments.map(keyOf))
  const kept = set.judgments.filter((judgment) => !incoming.has(keyOf(judgment)))
  const listed = ratersOf(set)
  const known = new Set(listed.map((rater) => rater.name))
  const raters = [...listed]
  for (const judgment of imported.judgments) {
    if (known.has(judgment.rater)) continue
    known.add(judgment.rater)
    // Settle's reserved name (a Quepid book exported by the app has its column) stays the adjudicator.
    raters.push({ name: judgment.rater, kind: judgment.rater === ADJUDICATION_RATER ? 'adjudication' : 'import' })
  }
  return replaced(workspace, setName, { ...set, queries, raters, judgments: [...kept, ...imported.judgments] })
}

/** Query ids for texts typed one a line: the set's own where the text is already there, new ones (q1, q2 …) that are free otherwise. */
export function queriesFromLines(lines: readonly string[], existing: readonly SetQuery[]): SetQuery[] {
  const byText = new Map(existing.map((query) => [query.text, query]))
  const used = new Set(existing.map((query) => query.id))
  let counter = 0
  const freeId = () => {
    let id: string
    do id = `q${++counter}`
    while (used.has(id))
    used.add(id)
    return id
  }
  const out: SetQuery[] = []
  const seen = new Set<string>()
  for (const line of lines) {
    const text = line.trim()
    if (!text || seen.has(text)) continue
    seen.add(text)
    out.push(byText.get(text) ?? { id: freeId(), text })
  }
  return out
}
