import { ExplorerError } from '../../shared/ipc/errors'
import { ratersOf } from '../../shared/relevance/raters'
import { RatedJudgmentSchema, withJudgeNotes, MAX_SET_JUDGMENTS, MAX_SET_RATERS, scaleOf, scaleText, type Judgment, type QuerySet } from '../../shared/relevance/query-set'
import { requireSet } from '../../shared/relevance/set-edits'
import type { Workspace } from '../../shared/workspace/workspace-file'

/** One rater's rating: `grade` null clears that rater's grade. */
export interface Rating {
  set: string
  query: string
  item: string
  rater: string
  grade: number | null
  /** An LLM judge's explanation of its grade. */
  explanation?: string | undefined
  /** The digest of the prompt that produced an LLM judge's grade. */
  promptDigest?: string | undefined
}

interface SetIndex {
  queries: Set<string>
  /** The judgment of each (query, item, rater), by `query \0 item \0 rater`. */
  judgments: Map<string, Judgment>
  /** The set's raters by name (ratersOf): a new one is refused past MAX_SET_RATERS. */
  raters: Set<string>
}

const keyOf = (query: string, item: string, rater: string) => `${query}\u0000${item}\u0000${rater}`

/**
 * The open document's sets indexed by (query, item, rater), so that a rating costs
 * what one judgment does, not what the set does: the one judgment is checked
 * against its schema and the set's scale (the rest of the document was
 * checked when it was taken), and the set's judgments are copied by
 * reference, never serialized. Indexes are made on a set's first rating and
 * move with the set each rating makes; any other edit makes new sets, which
 * are indexed afresh.
 */
export class RatingIndex {
  private readonly bySet = new WeakMap<QuerySet, SetIndex>()

  /**
   * The document with the rating taken, as withRating (set-edits.ts) would
   * make it, but with a re-rated judgment kept in its place; the same errors.
   * `added`: the bytes the rating adds to the file, about (the judgment's JSON).
   */
  rated(workspace: Workspace, rating: Rating): { workspace: Workspace; added: number; set?: { from: QuerySet; to: QuerySet } } {
    const set = requireSet(workspace, rating.set)
    const taken = this.ratedSet(set, rating)
    if (!taken) return { workspace, added: 0 }
    const sets = (workspace.sets ?? []).map((each) => (each === set ? taken.set : each))
    return { workspace: { ...workspace, sets }, added: taken.added, set: { from: set, to: taken.set } }
  }

  /** The set with the rating taken (null: it changes nothing); the file thread applies a rating to its copy of the set this way too. */
  ratedSet(set: QuerySet, rating: Rating): { set: QuerySet; added: number } | null {
    const index = this.indexOf(set)
    const judgments = set.judgments.slice()
    const added = this.take(set, index, judgments, rating)
    if (added === null) return null
    return { set: this.moved(set, index, judgments), added }
  }

  /**
   * The document with many ratings of one set taken at once (an LLM judge's
   * grades as they come): the set's judgments copied once for them all, not
   * once a rating, so a batch costs what one rating does plus its own.
   * Each rating is checked and taken on its own: one refused (its error in
   * `errors`, at its place) leaves the others taken.
   */
  ratedMany(workspace: Workspace, setName: string, ratings: readonly Rating[]): { workspace: Workspace; added: number; set?: { from: QuerySet; to: QuerySet }; taken: Rating[]; errors: (string | null)[] } {
    const set = requireSet(workspace, setName)
    const { set: next, added, taken, errors } = this.ratedSetMany(set, ratings)
    if (next === set) return { workspace, added: 0, taken, errors }
    const sets = (workspace.sets ?? []).map((each) => (each === set ? next : each))
    return { workspace: { ...workspace, sets }, added, set: { from: set, to: next }, taken, errors }
  }

  /** The set with many ratings taken, each on its own (the same set when none changes anything); the file thread follows a batch this way too. */
  ratedSetMany(set: QuerySet, ratings: readonly Rating[]): { set: QuerySet; added: number; taken: Rating[]; errors: (string | null)[] } {
    const index = this.indexOf(set)
    const judgments = set.judgments.slice()
    let added = 0
    const taken: Rating[] = []
    const errors = ratings.map((rating) => {
      try {
        if (rating.set !== set.name) throw new ExplorerError('validation', `set: a rating of "${rating.set}" in a batch of "${set.name}".`)
        const bytes = this.take(set, index, judgments, rating)
        if (bytes !== null) {
          added += bytes
          taken.push(rating)
        }
        return null
      } catch (error) {
        return error instanceof Error ? error.message : String(error)
      }
    })
    return { set: taken.length === 0 ? set : this.moved(set, index, judgments), added, taken, errors }
  }

  /**
   * Takes one rating into `judgments` (the set's, copied) and the index; the
   * bytes it adds, about, or null when it changes nothing. Everything is
   * checked before anything changes: a refused rating leaves both as they were.
   */
  private take(set: QuerySet, index: SetIndex, judgments: Judgment[], rating: Rating): number | null {
    if (!index.queries.has(rating.query)) throw new ExplorerError('not_found', `The query set "${rating.set}" has no query with the id "${rating.query}".`)
    const scale = scaleOf(set)
    if (rating.grade !== null && !scale.some((step) => step.grade === rating.grade)) {
      throw new ExplorerError('validation', `grade: ${rating.grade} is not a grade of the set's scale (${scaleText(scale)}).`)
    }
    const key = keyOf(rating.query, rating.item, rating.rater)
    const old = index.judgments.get(key)
    let judgment: Judgment | null = null
    if (rating.grade !== null) {
      const checked = RatedJudgmentSchema.safeParse(
        withJudgeNotes({ query: rating.query, item: rating.item, rater: rating.rater, grade: rating.grade }, rating.explanation, rating.promptDigest),
      )
      if (!checked.success) {
        const issue = checked.error.issues[0]!
        throw new ExplorerError('validation', `${issue.path.join('.') || 'rating'}: ${issue.message}`)
      }
      judgment = checked.data
    }
    const at = old === undefined ? -1 : judgments.indexOf(old)
    if (judgment && at >= 0) judgments[at] = judgment
    else if (judgment) {
      if (judgments.length >= MAX_SET_JUDGMENTS) {
        throw new ExplorerError('validation', `set.judgments: the set "${set.name}" holds ${MAX_SET_JUDGMENTS.toLocaleString('en-US')} judgments, as many as a set may; this rating was not made.`)
      }
      if (!index.raters.has(judgment.rater) && index.raters.size >= MAX_SET_RATERS) {
        throw new ExplorerError('validation', `rater: the set "${set.name}" has ${MAX_SET_RATERS.toLocaleString('en-US')} raters, as many as a set may; this rating by "${judgment.rater}" was not made.`)
      }
      judgments.push(judgment)
      index.raters.add(judgment.rater)
    } else if (at >= 0) judgments.splice(at, 1)
    else return null
    if (judgment) index.judgments.set(key, judgment)
    else index.judgments.delete(key)
    return judgment && !old ? JSON.stringify(judgment).length + 8 : 0
  }

  /** The set with its new judgments; the index moves with it. */
  private moved(set: QuerySet, index: SetIndex, judgments: Judgment[]): QuerySet {
    const next: QuerySet = { ...set, judgments }
    this.bySet.delete(set)
    this.bySet.set(next, index)
    return next
  }

  private indexOf(set: QuerySet): SetIndex {
    let index = this.bySet.get(set)
    if (!index) {
      index = {
        queries: new Set(set.queries.map((query) => query.id)),
        judgments: new Map(set.judgments.map((judgment) => [keyOf(judgment.query, judgment.item, judgment.rater), judgment])),
        raters: new Set(ratersOf(set).map((rater) => rater.name)),
      }
      this.bySet.set(set, index)
    }
    return index
  }
}
