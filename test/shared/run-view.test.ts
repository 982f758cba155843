import { describe, expect, it } from 'vitest'
import { evaluate, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import type { CaseReport } from '../../src/shared/test-cases/report'
import { failureText } from '../../src/shared/test-cases/report'
import {
  caseSubject,
  durationText,
  failureLines,
  outcomeText,
  progressText,
  rankDiffRows,
  runCounts,
  runTargetOf,
  summaryText,
} from '../../src/shared/test-cases/run-view'

const run = (overrides: Partial<RunOutcome>): RunOutcome => ({
  status: 200,
  message: null,
  total: 5628,
  keys: ['71137', '3167796', 'c'],
  labels: ['Sanaa', 'San Potito Sannitico', 'C'],
  firstItem: null,
  durationMs: 12,
  ...overrides,
})

const report = (checks: CaseReport['checks'], outcome: CaseReport['outcome'] = 'failed'): CaseReport => ({ name: 'x', outcome, durationMs: 10, checks })

describe('the Tests region words', () => {
  it('says each outcome in words, not by colour alone', () => {
    expect(outcomeText('passed')).toBe('✓ passed')
    expect(outcomeText('failed')).toBe('✗ failed')
    expect(outcomeText('error')).toBe('could not run')
  })

  it('says what a case runs: its saved query, or its own query and what it searches for', () => {
    expect(caseSubject({ query: 'San, default ranking' })).toBe('San, default ranking')
    const request = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType: 'results' as const, options: {} }
    expect(caseSubject({ request })).toBe('own query “paris”')
    expect(caseSubject({ request: { ...request, steps: [] } })).toBe('own query')
  })

  it('writes durations short', () => {
    expect(durationText(12.4)).toBe('12 ms')
    expect(durationText(1234)).toBe('1.2 s')
    expect(durationText(125_000)).toBe('2 min 5 s')
  })

  it('gives each failed expectation with expected vs actual in failureText\'s words', () => {
    const failed = report(evaluate({ rankAtMost: [{ id: '3167796', rank: 1 }], totalAtLeast: 10 }, run({})))
    const lines = failureLines(failed)
    expect(lines).toEqual([{ what: 'San Potito Sannitico (3167796)', text: 'expected at rank 1 or better, found at rank 2', rows: [] }])
    expect(failureText(failed)).toBe(`${lines[0]!.what} ${lines[0]!.text}`)
    const status = failureLines(report(evaluate({}, run({ status: 404, message: 'No such api' }))))
    expect(status).toEqual([{ what: 'status 200:', text: 'expected 200, got 404: No such api', rows: [] }])
    expect(failureText(report(evaluate({}, run({ status: 404, message: 'No such api' }))))).toBe('status 200: expected 200, got 404: No such api')
  })

  it('gives a failed snapshot its rank diff, with the labels of the items this run saw and the names the snapshot kept', () => {
    const checks = evaluate({ snapshot: { ids: ['3167796', 'c', 'gone-one', 'unnamed'], names: ['', '', 'Gone One', ''], minRbo: 0.9 } }, run({}))
    const [line] = failureLines(report(checks))
    expect(line!.what).toBe('snapshot of the top 4 (RBO ≥ 0.9):')
    expect(line!.rows).toEqual([
      { before: '1', now: '2', move: '↓1', kind: 'down', key: '3167796', keyText: '3167796', label: 'San Potito Sannitico' },
      { before: '2', now: '3', move: '↓1', kind: 'down', key: 'c', keyText: 'c', label: 'C' },
      { before: '3', now: '–', move: 'gone', kind: 'gone', key: 'gone-one', keyText: 'gone-one', label: 'Gone One' },
      { before: '4', now: '–', move: 'gone', kind: 'gone', key: 'unnamed', keyText: 'unnamed', label: '' },
      { before: '–', now: '1', move: 'new', kind: 'new', key: '71137', keyText: '71137', label: 'Sanaa' },
    ])
    expect(rankDiffRows({})).toEqual([])
  })

  it('gives a case that could not run its reason', () => {
    expect(failureLines({ name: 'x', outcome: 'error', durationMs: 0, checks: [], error: 'The saved query "Nope" is not in the workspace.' })).toEqual([
      { what: 'Could not run:', text: 'The saved query "Nope" is not in the workspace.', rows: [] },
    ])
  })

  it('counts a run, and sums it up', () => {
    const cases = [report([], 'passed'), report([], 'passed'), report([], 'failed'), null]
    const counts = runCounts(cases)
    expect(counts).toEqual({ passed: 2, failed: 1, errors: 0, done: 3, total: 4 })
    expect(progressText(counts)).toBe('3 of 4')
    expect(summaryText(counts, 'done')).toBe('2 passed, 1 failed')
    expect(summaryText(counts, 'cancelled')).toBe('Cancelled: 2 passed, 1 failed, 1 not finished')
    expect(summaryText(counts, 'running')).toBe('3 of 4 run: 2 passed, 1 failed')
    expect(summaryText(runCounts([report([], 'error')]), 'done')).toBe('1 could not run')
    expect(summaryText(runCounts([report([], 'passed'), report([], 'passed')]), 'done')).toBe('2 passed')
    expect(summaryText(runCounts([]), 'done')).toBe('0 passed')
  })

  it('makes a run target of the picker\'s choice: only what was chosen is overridden', () => {
    expect(runTargetOf({ connectionId: null, api: 'x', config: 'production' })).toBeUndefined()
    expect(runTargetOf({ connectionId: 'demo', api: '', config: 'production' })).toEqual({ connectionId: 'demo', config: 'production' })
    expect(runTargetOf({ connectionId: 'demo', api: 'places-v2', config: '' })).toEqual({ connectionId: 'demo', api: 'places-v2' })
    expect(runTargetOf({ connectionId: 'demo', api: '', config: '' })).toEqual({ connectionId: 'demo' })
  })
})
