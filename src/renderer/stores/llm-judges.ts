import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { RunTarget } from '../../shared/compare/compare-targets'
import type { JudgeEstimate, JudgeRunStatus } from '../../shared/ipc/judge-contract'
import { JUDGE_SCOPES } from '../../shared/ipc/judge-contract'
import type { Judge } from '../../shared/relevance/llm-judge'
import { call } from '../api/explorer-client'
import { useFollowedJob } from '../composables/useFollowedJob'
import { useQuerySetsStore } from './query-sets'
import { useWorkspaceStore } from './workspace'

/** How often a running judging job is asked for its progress (as an evaluation is). */
export const JUDGE_POLL_MS = 300
/** The budget a run starts with until the user gives another: enough for a set's top 10, never an open bill. */
export const DEFAULT_BUDGET_CALLS = 1_000
/** The pairs of a judge-next queue a run takes until the user gives another, and the most it may (judges:start's bound, the CLI's --next). */
export const DEFAULT_NEXT_PAIRS = 50
export const MAX_NEXT_PAIRS = 1_000

export type JudgeScope = (typeof JUDGE_SCOPES)[number]

/** What a run is asked to do, beside the judge and the set (the Evaluation view's). */
export interface JudgeRunChoice {
  /** Each query's top `depth`; with `next`, how deep Retry failed fetches the failed pairs' queries (main works out the queue's own depth). */
  depth: number
  scope: JudgeScope
  budgetCalls: number
  budgetTokens?: number | undefined
  concurrency: number
  /** Where the results to grade are fetched (the Evaluation view's connection and config); none: the set's template's own. */
  target?: RunTarget | undefined
  /** Instead of each query's top `depth`: the first `limit` pairs of that kept evaluation's What to judge next queue (main fetches as deep as its ranks need). */
  next?: { from: 'evaluation'; id: string; limit: number } | undefined
}

/** A judge is the demo's stand-in when its model is the demo service's `demo-judge`: its grades are labelled so everywhere. */
export function isDemoJudge(judge: Pick<Judge, 'model'>): boolean {
  return judge.model.startsWith('demo-judge')
}

/**
 * The workspace's LLM judges (issue 36) as the window uses them: their
 * settings (main owns the document: each edit replies the workspace view),
 * their keys (sent to main once, never kept here: only whether one is
 * stored comes back), and judging as a background job followed the one way
 * every job is (useFollowedJob): an Estimate is a dry run whose final status
 * holds the estimate; a run's end reads the set again so the grid, the
 * figures and the calibration show the new grades.
 */
export const useLlmJudgesStore = defineStore('llm-judges', () => {
  const workspace = useWorkspaceStore()
  const sets = useQuerySetsStore()

  const judges = computed<Judge[]>(() => workspace.view?.judges ?? [])
  /** Where a judge's calls go here: its base URL as written, or where main moved it (the Demo's binding). */
  const urlHere = (judge: Pick<Judge, 'name' | 'baseUrl'>): string => workspace.view?.judgeUrls?.[judge.name] ?? judge.baseUrl
  /** The judge the Judges part works with (key, run) by name; the first until chosen, and while the one chosen is gone. */
  const chosenName = ref<string | null>(null)
  const chosen = computed<Judge | null>(() => judges.value.find((judge) => judge.name === chosenName.value) ?? judges.value[0] ?? null)
  const error = ref<string | null>(null)
  /** The last estimate, and what it was of (another judge, set, scope, depth or queue is another estimate; `next` null: each query's top `depth`). */
  const estimate = shallowRef<{ judge: string; set: string; scope: JudgeScope; depth: number; next: JudgeRunChoice['next'] | null; estimate: JudgeEstimate } | null>(null)
  /** Whether the job followed is a dry run (Estimate) or grades. */
  const dryRun = ref(false)
  /** What the job followed was started with (Retry failed starts the same again, on its failures). */
  const started = shallowRef<{ judge: string; set: string; choice: JudgeRunChoice } | null>(null)
  /** Bumped when a run that graded has ended: the calibration reads again. */
  const gradedRuns = ref(0)

  const followed = useFollowedJob('judges', {
    intervalMs: JUDGE_POLL_MS,
    error,
    told: ['failed'],
    unreadable: "The judging's progress could not be read",
    async ended(final) {
      if (!final) return
      const from = started.value
      if (dryRun.value) {
        if (final.estimate && from) estimate.value = { judge: from.judge, set: from.set, scope: from.choice.scope, depth: from.choice.depth, next: from.choice.next ?? null, estimate: final.estimate }
        return
      }
      if (final.graded + final.cached === 0) return
      // The grades went into main's document: the view (its unsaved marker) and the set (grid, figures) follow.
      try {
        workspace.show((await call('workspace:current', {})).workspace)
      } catch {
        // The set read below still shows the grades; the marker follows the next edit.
      }
      if (sets.chosen === final.set) await sets.choose(final.set)
      gradedRuns.value++
    },
  })
  const { run, running } = followed
  /**
   * The last grading run (not an Estimate) as its status last came: kept
   * apart from the job followed, so an Estimate after a run with failures
   * leaves its end, its failures and Retry failed shown.
   */
  const gradingRun = shallowRef<JudgeRunStatus | null>(null)
  /** What that grading run was started with (its budget, Retry failed's choices): an Estimate started since is not it. */
  const gradingStarted = shallowRef<{ judge: string; set: string; choice: JudgeRunChoice } | null>(null)
  // Synchronously: the status is of the job begun under the dryRun of that moment.
  watch(
    run,
    (status) => {
      if (!status || dryRun.value) return
      gradingRun.value = status
      gradingStarted.value = started.value
    },
    { flush: 'sync' },
  )
  // Another workspace: main cancelled the run judging the last one; its run, estimate and failures were of that one.
  watch(
    () => workspace.openings,
    () => {
      followed.clear()
      gradingRun.value = null
      gradingStarted.value = null
      estimate.value = null
      started.value = null
      dryRun.value = false
    },
  )

  async function save(judge: Judge, previousName?: string): Promise<void> {
    workspace.show(await call('judges:save', { judge, ...(previousName !== undefined ? { previousName } : {}) }))
    chosenName.value = judge.name
  }

  async function remove(name: string): Promise<void> {
    workspace.show(await call('judges:delete', { name }))
  }

  const keyStatus = (name: string) => call('judges:key-status', { name })
  /** The key goes to main, which keeps it in the keychain under the judge's origin; nothing of it stays here. */
  const setKey = (name: string, key: string) => call('judges:set-key', { name, key })
  const clearKey = (name: string) => call('judges:clear-key', { name })

  /** Starts judging `set` with `judge` (an Estimate when `dry`); `retryOf` grades only the failures of that earlier run. */
  async function start(judge: string, set: string, choice: JudgeRunChoice, dry: boolean, retryOf?: string): Promise<JudgeRunStatus | null> {
    if (running.value) return null
    error.value = null
    dryRun.value = dry
    started.value = { judge, set, choice }
    // What a run grades makes the estimate before it out of date.
    if (!dry) estimate.value = null
    // Retry failed grades the failures alone (main refuses a queue with it), fetched to `depth`; a queue's run fetches as deep as its pairs' ranks.
    const next = retryOf === undefined ? choice.next : undefined
    return followed.begin(
      (runId) =>
        call('judges:start', {
          runId,
          judge,
          set,
          ...(choice.target ? { target: choice.target } : {}),
          ...(next ? { next } : { depth: choice.depth }),
          scope: choice.scope,
          budgetCalls: choice.budgetCalls,
          ...(choice.budgetTokens !== undefined ? { budgetTokens: choice.budgetTokens } : {}),
          concurrency: choice.concurrency,
          dryRun: dry,
          ...(retryOf !== undefined ? { retryOf } : {}),
        }),
      dry ? 'The estimate could not be made' : 'The judging did not start',
    )
  }

  /** Retry failed: the same judge, set and choices, on the failures of the last grading run (an Estimate since leaves it). */
  async function retryFailed(): Promise<JudgeRunStatus | null> {
    const last = gradingRun.value
    const from = gradingStarted.value
    if (!last || !from || last.failedCount === 0) return null
    return start(from.judge, from.set, from.choice, false, last.runId)
  }

  const cancel = () => followed.cancel()

  return { judges, urlHere, chosenName, chosen, error, estimate, dryRun, started, gradedRuns, run, running, gradingRun, gradingStarted, save, remove, keyStatus, setKey, clearKey, start, retryFailed, cancel }
})
