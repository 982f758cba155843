import { describe, expect, it } from 'vitest'
import { ratersOf } from '../../src/shared/relevance/raters'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { withRating } from '../../src/shared/relevance/set-edits'
import { mergeWorkspaces, type WorkspaceMergeResult } from '../../src/shared/workspace/workspace-merge'
import { serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { parsed, sampleWorkspace } from '../fixtures/sample-workspace'

/**
 * The three-way merge git's driver runs on a workspace file: two people's
 * edits of one set merge by key (set, query, item, rater), whatever lines of
 * the file they touched; only the same value changed both ways conflicts,
 * named in words. Each side is what the app writes and reads back, as the
 * driver gets it.
 */

const SET = 'Top queries'
const baseSet: QuerySet = {
  name: SET,
  query: 'Paris',
  queries: [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'lyon' },
  ],
  judgments: [{ query: 'q1', item: 'doc-1', rater: 'carol', grade: 1 }],
}
/** The base as the app writes it and reads it back. */
const base: Workspace = parsed(serializeWorkspace({ ...sampleWorkspace, sets: [baseSet] }))

/** A side's edit, through the app's writer and reader, as a file on a branch would be. */
function side(edit: (workspace: Workspace) => Workspace): Workspace {
  return parsed(serializeWorkspace(edit(base)))
}

const rate = (query: string, item: string, rater: string, grade: number | null) => (workspace: Workspace) => withRating(workspace, SET, { query, item, rater, grade })
const each =
  (...edits: ((workspace: Workspace) => Workspace)[]) =>
  (workspace: Workspace) =>
    edits.reduce((done, edit) => edit(done), workspace)
const withSetFields = (fields: Partial<QuerySet>) => (workspace: Workspace) => ({ ...workspace, sets: workspace.sets!.map((set) => (set.name === SET ? { ...set, ...fields } : set)) })

function merged(result: WorkspaceMergeResult): Workspace {
  if (!result.ok) throw new Error(result.conflicts.join('\n'))
  return result.workspace
}

const setOf = (workspace: Workspace) => workspace.sets!.find((set) => set.name === SET)!
const grades = (workspace: Workspace) =>
  setOf(workspace)
    .judgments.map(({ query, item, rater, grade }) => `${query} ${item} ${rater} ${grade}`)
    .sort()

/** The set's listed raters, by name (the file writes them sorted, so their order in memory is not what is kept). */
const raters = (workspace: Workspace) =>
  ratersOf(setOf(workspace))
    .map(({ name, kind }) => `${name} ${kind}`)
    .sort()

describe('judgments', () => {
  it('keeps both raters when two people grade the same items on two sides', () => {
    const ours = side(each(rate('q1', 'doc-1', 'alice', 3), rate('q1', 'doc-2', 'alice', 0)))
    const theirs = side(each(rate('q1', 'doc-1', 'bob', 2), rate('q1', 'doc-2', 'bob', 1)))
    const result = merged(mergeWorkspaces(base, ours, theirs))
    expect(grades(result)).toEqual(['q1 doc-1 alice 3', 'q1 doc-1 bob 2', 'q1 doc-1 carol 1', 'q1 doc-2 alice 0', 'q1 doc-2 bob 1'])
    expect(raters(result)).toEqual(['alice person', 'bob person', 'carol person'])
    // What the app writes of the merge reads back as the same workspace.
    expect(grades(parsed(serializeWorkspace(result)))).toEqual(grades(result))
  })

  it('is a conflict when the same rater grades the same item differently on both sides, named by set, query, item and rater', () => {
    const result = mergeWorkspaces(base, side(rate('q1', 'doc-1', 'carol', 3)), side(rate('q1', 'doc-1', 'carol', 0)))
    expect(result).toEqual({ ok: false, conflicts: ['set "Top queries", query "q1", item "doc-1", rater "carol": graded 3 on ours, graded 0 on theirs (base: 1)'] })
    const added = mergeWorkspaces(base, side(rate('q2', 'doc-9', 'dan', 2)), side(rate('q2', 'doc-9', 'dan', 1)))
    expect(added).toEqual({ ok: false, conflicts: ['set "Top queries", query "q2", item "doc-9", rater "dan": graded 2 on ours, graded 1 on theirs (base: no grade)'] })
  })

  it('takes the same grade given on both sides, and a regrade made on one side only', () => {
    const same = merged(mergeWorkspaces(base, side(rate('q2', 'doc-5', 'alice', 2)), side(rate('q2', 'doc-5', 'alice', 2))))
    expect(grades(same)).toEqual(['q1 doc-1 carol 1', 'q2 doc-5 alice 2'])
    const regraded = merged(mergeWorkspaces(base, side(rate('q1', 'doc-1', 'carol', 3)), side(rate('q2', 'doc-5', 'bob', 0))))
    expect(grades(regraded)).toEqual(['q1 doc-1 carol 3', 'q2 doc-5 bob 0'])
  })

  it("takes an LLM judge's grade made again under a new prompt on one side, and calls two different ones a conflict", () => {
    const digest = (c: string) => c.repeat(64)
    const judged = (explanation: string, promptDigest: string, grade = 2) => (workspace: Workspace) =>
      withRating(workspace, SET, { query: 'q1', item: 'doc-1', rater: 'llm:demo', grade, explanation, promptDigest })
    const judgedBase = parsed(serializeWorkspace(judged('first', digest('a'))(base)))
    const onSide = (edit: (workspace: Workspace) => Workspace) => parsed(serializeWorkspace(edit(judgedBase)))
    const again = merged(mergeWorkspaces(judgedBase, onSide(rate('q2', 'doc-5', 'bob', 0)), onSide(judged('second', digest('b')))))
    expect(setOf(again).judgments.find((judgment) => judgment.rater === 'llm:demo')).toEqual({ query: 'q1', item: 'doc-1', rater: 'llm:demo', grade: 2, explanation: 'second', promptDigest: digest('b') })
    const both = mergeWorkspaces(judgedBase, onSide(judged('ours', digest('c'))), onSide(judged('theirs', digest('d'))))
    expect(both).toEqual({ ok: false, conflicts: ['set "Top queries", query "q1", item "doc-1", rater "llm:demo": graded 2 on both, with another explanation or prompt on each (base: 2)'] })
  })

  it('merges the judges by name: one added on each side, one edited on one side', () => {
    const judge = (name: string, model: string) => ({ name, provider: 'openai' as const, baseUrl: 'https://api.openai.com/v1', model, temperature: 0, prompt: 'Grade {{item}} for {{query}}.', fields: [], maxFieldChars: 1000, structured: true, fewShot: 0, fewShotSeed: 1, depth: 10, concurrency: 4 })
    const withJudges = (...judges: ReturnType<typeof judge>[]) => (workspace: Workspace) => ({ ...workspace, judges: [...(workspace.judges ?? []), ...judges] })
    const judgeBase = parsed(serializeWorkspace(withJudges(judge('gpt', 'gpt-4o'))(base)))
    const onSide = (edit: (workspace: Workspace) => Workspace) => parsed(serializeWorkspace(edit(judgeBase)))
    const result = merged(
      mergeWorkspaces(
        judgeBase,
        onSide((workspace) => ({ ...withJudges(judge('claude', 'claude-x'))(workspace), judges: [judge('gpt', 'gpt-5'), judge('claude', 'claude-x')] })),
        onSide(withJudges(judge('local', 'llama'))),
      ),
    )
    expect(result.judges!.map((each) => `${each.name} ${each.model}`).sort()).toEqual(['claude claude-x', 'gpt gpt-5', 'local llama'])
  })

  it('removes a judgment one side removed and the other did not touch', () => {
    const result = merged(mergeWorkspaces(base, side(rate('q1', 'doc-1', 'carol', null)), side(rate('q2', 'doc-3', 'bob', 2))))
    expect(grades(result)).toEqual(['q2 doc-3 bob 2'])
  })

  it('is a conflict when one side removes a grade the other changed', () => {
    const result = mergeWorkspaces(base, side(rate('q1', 'doc-1', 'carol', null)), side(rate('q1', 'doc-1', 'carol', 2)))
    expect(result).toEqual({ ok: false, conflicts: ['set "Top queries", query "q1", item "doc-1", rater "carol": removed on ours, graded 2 on theirs (base: 1)'] })
  })

  it('is a conflict when one side grades an item of a query the other side removed', () => {
    const ours = side(withSetFields({ queries: [{ id: 'q1', text: 'paris' }] }))
    const theirs = side(rate('q2', 'doc-7', 'bob', 2))
    expect(mergeWorkspaces(base, ours, theirs)).toEqual({
      ok: false,
      conflicts: ['set "Top queries", query "q2", item "doc-7", rater "bob": graded on one side, while the other removed the query'],
    })
  })
})

describe('raters', () => {
  it('keeps the raters both sides added', () => {
    const ours = side(withSetFields({ raters: [{ name: 'carol', kind: 'person' }, { name: 'gpt', kind: 'model' }] }))
    const theirs = side(withSetFields({ raters: [{ name: 'carol', kind: 'person' }, { name: 'trec.qrels', kind: 'import' }] }))
    expect(raters(merged(mergeWorkspaces(base, ours, theirs)))).toEqual(['carol person', 'gpt model', 'trec.qrels import'])
  })

  it('keeps the kind of a rater one side took off the list while the other graded as them', () => {
    const imported = side(each(withSetFields({ raters: [{ name: 'qrels', kind: 'import' }] }), rate('q1', 'doc-1', 'qrels', 2)))
    // Ours drops the import (its grades and its entry); theirs, from the same base, grades one more item as it.
    const ours = parsed(serializeWorkspace(withSetFields({ raters: [], judgments: setOf(imported).judgments.filter((j) => j.rater !== 'qrels') })(imported)))
    const theirs = parsed(serializeWorkspace(rate('q2', 'doc-8', 'qrels', 1)(imported)))
    const result = merged(mergeWorkspaces(imported, ours, theirs))
    expect(grades(result)).toEqual(['q1 doc-1 carol 1', 'q2 doc-8 qrels 1'])
    expect(raters(result)).toEqual(['carol person', 'qrels import'])
  })

  it('is a conflict when both sides list one rater with different kinds', () => {
    const ours = side(withSetFields({ raters: [{ name: 'carol', kind: 'person' }, { name: 'x', kind: 'model' }] }))
    const theirs = side(withSetFields({ raters: [{ name: 'carol', kind: 'person' }, { name: 'x', kind: 'import' }] }))
    expect(mergeWorkspaces(base, ours, theirs)).toEqual({ ok: false, conflicts: ['set "Top queries", rater "x": of kind model on ours, import on theirs'] })
  })
})

describe("a set's other fields and the rest of the file", () => {
  it("keeps both when one side edits the set's notes and the other rates", () => {
    const result = merged(mergeWorkspaces(base, side(withSetFields({ notes: 'judged twice' })), side(rate('q2', 'doc-4', 'bob', 3))))
    expect(setOf(result).notes).toBe('judged twice')
    expect(grades(result)).toEqual(['q1 doc-1 carol 1', 'q2 doc-4 bob 3'])
  })

  it("is a conflict when both sides change the set's notes differently", () => {
    const result = mergeWorkspaces(base, side(withSetFields({ notes: 'a' })), side(withSetFields({ notes: 'b' })))
    expect(result).toEqual({ ok: false, conflicts: ['set "Top queries": its "notes": added on both sides, differently'] })
  })

  it("merges a set's queries by id: both sides add, in their places; the same id with other text conflicts", () => {
    const ours = side(withSetFields({ queries: [...baseSet.queries, { id: 'q3', text: 'nice' }] }))
    const theirs = side(withSetFields({ queries: [{ id: 'q0', text: 'rome' }, ...baseSet.queries] }))
    expect(setOf(merged(mergeWorkspaces(base, ours, theirs))).queries.map((query) => query.id)).toEqual(['q0', 'q1', 'q2', 'q3'])
    const clash = mergeWorkspaces(base, ours, side(withSetFields({ queries: [...baseSet.queries, { id: 'q3', text: 'nancy' }] })))
    expect(clash).toEqual({ ok: false, conflicts: ['set "Top queries", query "q3": added on both sides, differently'] })
  })

  it('merges connections by id, saved queries and sets by name, and unknown top-level keys each as a value', () => {
    const ours = side((workspace) => ({ ...workspace, connections: workspace.connections.map((c) => ({ ...c, name: 'Demo (ours)' })), future: { a: 1 } }) as Workspace)
    const theirs = side((workspace) => ({
      ...workspace,
      queries: [...workspace.queries, { ...workspace.queries[0]!, name: 'Lyon' }],
      sets: [...workspace.sets!, { name: 'Other', query: 'Paris', queries: [], judgments: [] }],
    }))
    const result = merged(mergeWorkspaces(base, ours, theirs))
    expect(result.connections.map((c) => c.name)).toEqual(['Demo (ours)'])
    expect(result.queries.map((q) => q.name)).toEqual(['Paris', 'Lyon'])
    expect(result.sets!.map((s) => s.name)).toEqual([SET, 'Other'])
    expect((result as Record<string, unknown>).future).toEqual({ a: 1 })

    const both = mergeWorkspaces(base, ours, side((workspace) => ({ ...workspace, connections: workspace.connections.map((c) => ({ ...c, name: 'Demo (theirs)' })), future: { a: 2 } }) as Workspace))
    expect(both).toEqual({ ok: false, conflicts: ['connection "demo": changed on both sides, differently', 'the top-level key "future": added on both sides, differently'] })
  })

  it('removes a set one side removed and the other left as it was; one removed and the other rated is a conflict', () => {
    const removed = side((workspace) => ({ ...workspace, sets: [] }))
    expect(merged(mergeWorkspaces(base, removed, side((workspace) => workspace))).sets).toEqual([])
    expect(mergeWorkspaces(base, removed, side(rate('q1', 'doc-2', 'bob', 1)))).toEqual({ ok: false, conflicts: ['set "Top queries": removed on ours, changed on theirs'] })
  })

  it('merges a file added on both sides (no base): the same entries are fine, both raters are kept', () => {
    const ours = side(rate('q1', 'doc-2', 'alice', 2))
    const theirs = side(rate('q1', 'doc-2', 'bob', 0))
    expect(grades(merged(mergeWorkspaces(undefined, ours, theirs)))).toEqual(['q1 doc-1 carol 1', 'q1 doc-2 alice 2', 'q1 doc-2 bob 0'])
  })

  it('is a conflict when the merge of two valid changes is not a valid workspace', () => {
    // Ours adds a saved query on the connection theirs removed (with all that used it): each side is valid, the two together are not.
    const ours = side((workspace) => ({ ...workspace, queries: [...workspace.queries, { ...workspace.queries[0]!, name: 'Lyon' }] }))
    const theirs = side((workspace) => ({ ...workspace, connections: [], queries: [], sets: [] }))
    expect(mergeWorkspaces(base, ours, theirs)).toEqual({
      ok: false,
      conflicts: ['the merged file would not be valid: queries[0].connection: names no connection of this file ("demo")'],
    })
  })
})
