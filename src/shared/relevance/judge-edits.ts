import { ExplorerError } from '../ipc/errors'
import type { Workspace } from '../workspace/workspace-file'
import type { Judge } from './llm-judge'

/**
 * The edits a user makes to the open workspace's LLM judges, as functions
 * from one workspace to the next (as set-edits.ts does for query sets). A
 * judge's grades stay in the sets when the judge is renamed or deleted: they
 * are a rater's judgments like any other, and the file keeps who gave them.
 */

export function judgesOf(workspace: Pick<Workspace, 'judges'>): Judge[] {
  return workspace.judges ?? []
}

export function requireJudge(workspace: Pick<Workspace, 'judges'>, name: string): Judge {
  const found = judgesOf(workspace).find((judge) => judge.name === name)
  if (!found) throw new ExplorerError('not_found', `There is no judge named "${name}" in this workspace.`)
  return found
}

/** Adds a judge, or replaces the one called `previousName` (a rename when the names differ); a name taken by another is refused. */
export function withJudge(workspace: Workspace, judge: Judge, previousName?: string): Workspace {
  const name = judge.name.trim()
  if (!name) throw new ExplorerError('validation', 'name: give the judge a name.', { problems: [{ field: 'name', message: 'empty' }] })
  const clash = judgesOf(workspace).some((each) => each.name === name)
  if (clash && name !== previousName) {
    throw new ExplorerError('validation', `name: a judge named "${name}" exists; choose another name.`, { problems: [{ field: 'name', message: `"${name}" is taken` }] })
  }
  const next = { ...judge, name }
  if (previousName === undefined) return { ...workspace, judges: [...judgesOf(workspace), next] }
  requireJudge(workspace, previousName)
  return { ...workspace, judges: judgesOf(workspace).map((each) => (each.name === previousName ? next : each)) }
}

export function withoutJudge(workspace: Workspace, name: string): Workspace {
  requireJudge(workspace, name)
  return { ...workspace, judges: judgesOf(workspace).filter((judge) => judge.name !== name) }
}
