import type { JobStatus } from '../ipc/job-channels'
import { shownItem } from '../compare/item-key'
import { moveText, type RankChange } from '../compare/rank-metrics'
import type { CheckResult } from './evaluate'
import { failureParts, SNAPSHOT_MOVES, type CaseReport } from './report'
import { visibleControls } from '../text/visible-controls'
import { searchTextOf } from './case-name'
import type { TestCase } from './test-case'

/**
 * How the Tests region words a run: each case's outcome (in words, so it
 * never rests on colour alone), what it runs, the failures with expected vs
 * actual as report.ts writes them, a failed snapshot's rank diff as rows,
 * the progress and the summary.
 */

export type Outcome = CaseReport['outcome']

const OUTCOME_TEXT: Record<Outcome, string> = { passed: '✓ passed', failed: '✗ failed', error: 'could not run' }

export function outcomeText(outcome: Outcome): string {
  return OUTCOME_TEXT[outcome]
}

/** What a case runs: the saved query it names, or its own query (with what it searches for, when that can be told). */
export function caseSubject(testCase: Pick<TestCase, 'query' | 'request'>): string {
  if (testCase.query !== undefined) return testCase.query
  const text = testCase.request ? searchTextOf(testCase.request) : null
  return text ? `own query “${text}”` : 'own query'
}

/** 12 ms, 1.2 s, 2 min 5 s. */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`
  const seconds = Math.round(ms / 1_000)
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

/** One failed expectation, worded as report.ts's failureText does: what it is about (the lead), then expected vs actual. */
export interface FailureLine {
  /** "San Potito Sannitico (3167796)", "status 200:". */
  what: string
  /** "expected at rank 1 or better, found at rank 4". */
  text: string
  /** A failed snapshot's rank diff. */
  rows: RankDiffRow[]
}

export interface RankDiffRow {
  before: string
  now: string
  move: string
  /** up / down / same / new / gone, for the move's colour (its text says it too). */
  kind: RankChange['move']['kind']
  /** The item's key as sent, to tell the rows apart. */
  key: string
  /** The key as shown: bidi controls as visible escapes. */
  keyText: string
  /** The item's label as shown, or '' when there is none other than the key. */
  label: string
}

/** A move between the snapshot and this run: ↑3, ↓5, =, new (not in the snapshot), gone (no longer in the top). */
export function moveWord(move: RankChange['move']): string {
  return moveText(move, SNAPSHOT_MOVES)
}

export function rankDiffRows(check: Pick<CheckResult, 'changes' | 'labels'>): RankDiffRow[] {
  return (check.changes ?? []).map((change) => {
    const shown = shownItem(change.key, check.labels?.[change.key])
    return {
      before: change.rankA === null ? '–' : String(change.rankA),
      now: change.rankB === null ? '–' : String(change.rankB),
      move: moveWord(change.move),
      kind: change.move.kind,
      key: change.key,
      keyText: shown.key,
      label: shown.distinct ? shown.label : '',
    }
  })
}

/** Each failed expectation of a case; a case that could not run gives its reason alone. */
export function failureLines(report: CaseReport): FailureLine[] {
  if (report.outcome === 'error') return [{ what: 'Could not run:', text: report.error ?? 'The case could not run.', rows: [] }]
  return report.checks
    .filter((check) => !check.passed)
    .map((check) => {
      // An item's name is the server's text: bidi controls show as escapes, as in the rank diff.
      const { lead, text } = failureParts(check)
      return { what: visibleControls(lead), text: visibleControls(text), rows: rankDiffRows(check) }
    })
}

export interface RunCounts {
  passed: number
  failed: number
  errors: number
  done: number
  total: number
}

export function runCounts(cases: readonly (Pick<CaseReport, 'outcome'> | null)[]): RunCounts {
  const count = (outcome: Outcome) => cases.filter((entry) => entry?.outcome === outcome).length
  const passed = count('passed')
  const failed = count('failed')
  const errors = count('error')
  return { passed, failed, errors, done: passed + failed + errors, total: cases.length }
}

/** "4 of 9". */
export function progressText(counts: Pick<RunCounts, 'done' | 'total'>): string {
  return `${counts.done} of ${counts.total}`
}

/** "7 passed, 2 failed" (and "1 could not run"); a cancelled run says how many cases finished before it stopped. */
export function summaryText(counts: RunCounts, state: JobStatus['state']): string {
  // A run fails as a whole only by a fault of the app's; its cases say what did not run.
  if (state === 'failed') return `Failed inside the app: ${counts.passed} passed, ${counts.failed} failed, ${counts.total - counts.passed - counts.failed} not run`
  if (state === 'cancelled') {
    // A cancelled run reports the cases it stopped as could-not-run: they are what did not finish.
    const unfinished = counts.total - counts.passed - counts.failed
    return `Cancelled: ${counts.passed} passed, ${counts.failed} failed, ${unfinished} not finished`
  }
  const parts = [
    counts.passed > 0 || (counts.failed === 0 && counts.errors === 0) ? `${counts.passed} passed` : '',
    counts.failed > 0 ? `${counts.failed} failed` : '',
    counts.errors > 0 ? `${counts.errors} could not run` : '',
  ].filter(Boolean)
  const tally = parts.join(', ')
  return state === 'running' ? `${progressText(counts)} run: ${tally}` : tally
}

/** The picker's choice of where a run goes, as the Tests region holds it. */
export interface TargetChoice {
  /** An app connection; null: each case on its own connection. */
  connectionId: string | null
  /** The API and config every case runs with on that connection; empty: each case's own. */
  api: string
  config: string
}

/** The run target a choice makes; undefined: each case on its own connection, as it was saved. */
export function runTargetOf(choice: TargetChoice): { connectionId: string; api?: string; config?: string } | undefined {
  if (choice.connectionId === null) return undefined
  return { connectionId: choice.connectionId, ...(choice.api ? { api: choice.api } : {}), ...(choice.config ? { config: choice.config } : {}) }
}
