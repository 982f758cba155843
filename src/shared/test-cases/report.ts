import { z } from 'zod'
import { moveText } from '../compare/rank-metrics'
import { CheckResultSchema, itemText, type CheckResult } from './evaluate'
import { xmlAttribute, xmlText } from '../text/xml-escape'

/**
 * A run of a workspace's test cases, as the app shows it, the command line
 * prints it and CI reads it (JUnit XML). One shape for all three, so they
 * never disagree about what failed.
 */

export const CaseReportSchema = z.object({
  name: z.string(),
  /** passed / failed: every check ran; error: the case could not run (unknown saved query, no connection). */
  outcome: z.enum(['passed', 'failed', 'error']),
  durationMs: z.number(),
  checks: z.array(CheckResultSchema),
  /** Why the case could not run (outcome error). */
  error: z.string().optional(),
  /** The keys of the top items the run saw, best first: what "Update snapshot" records… */
  keys: z.array(z.string()).optional(),
  /** …with their labels, in the same order (kept with the snapshot as the items' names). */
  labels: z.array(z.string()).optional(),
})

export type CaseReport = z.infer<typeof CaseReportSchema>

export interface SuiteReport {
  /** The workspace's name. */
  name: string
  /** What it ran against, in words: "Demo (config production)". */
  target: string
  durationMs: number
  cases: CaseReport[]
}

export function summary(report: SuiteReport): { passed: number; failed: number; errors: number } {
  const count = (outcome: CaseReport['outcome']) => report.cases.filter((entry) => entry.outcome === outcome).length
  return { passed: count('passed'), failed: count('failed'), errors: count('error') }
}

/** The failed checks of a case, one per line, with a failed snapshot's rank diff under it. */
export function failureText(testCase: CaseReport): string {
  return failureLines(testCase).join('\n')
}

/**
 * A snapshot's rank diff compares the recorded ranking with this run's:
 * there is no A or B, only what was recorded and what came now.
 */
export const SNAPSHOT_MOVES = { new: 'new', gone: 'gone' } as const

/**
 * A failed check in two parts, the lead (what it is about) and the rest:
 * "San Potito Sannitico (3167796)" + "expected at rank 1 or better, found at
 * rank 4"; "status 200:" + "expected 200, got 404: No such api".
 */
export function failureParts(check: Pick<CheckResult, 'what' | 'item' | 'expected' | 'actual'>): { lead: string; text: string } {
  if (check.item !== undefined) return { lead: check.item, text: `expected ${check.expected}, ${check.actual}` }
  return { lead: `${check.what}:`, text: `expected ${check.expected}, got ${check.actual}` }
}

/**
 * failureText's lines, kept apart: a server's message or a result's label
 * may hold a line feed of its own, so a terminal prints each line as one
 * (its line feeds escaped) rather than splitting the joined text.
 */
export function failureLines(testCase: CaseReport): string[] {
  if (testCase.outcome === 'error') return [testCase.error ?? 'The case could not run.']
  const lines: string[] = []
  for (const check of testCase.checks.filter((entry) => !entry.passed)) {
    const { lead, text } = failureParts(check)
    lines.push(`${lead} ${text}`)
    if ((check.changes ?? []).length > 0) lines.push(`    ${'snapshot'.padStart(8)}  ${'now'.padStart(3)}  ${'move'.padEnd(4)}  item`)
    for (const change of check.changes ?? []) {
      const name = itemText(change.key, check.labels?.[change.key])
      lines.push(`    ${String(change.rankA ?? '–').padStart(8)}  ${String(change.rankB ?? '–').padStart(3)}  ${moveText(change.move, SNAPSHOT_MOVES).padEnd(4)}  ${name}`)
    }
  }
  return lines
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub's test reporters):
 * one testsuite per run, a testcase per case, a failure element with the
 * expected-vs-actual text, an error element for a case that could not run.
 */
export function toJUnit(report: SuiteReport): string {
  const { failed, errors } = summary(report)
  const suite = `query-explorer.${report.name}`
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suite)}" tests="${report.cases.length}" failures="${failed}" errors="${errors}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${xmlAttribute(`${report.name} on ${report.target}`)}" tests="${report.cases.length}" failures="${failed}" errors="${errors}" skipped="0" time="${seconds(report.durationMs)}">`,
  ]
  for (const testCase of report.cases) {
    const open = `    <testcase name="${xmlAttribute(testCase.name)}" classname="${xmlAttribute(suite)}" time="${seconds(testCase.durationMs)}"`
    if (testCase.outcome === 'passed') {
      lines.push(`${open}/>`)
      continue
    }
    const text = failureText(testCase)
    const first = text.split('\n')[0] ?? ''
    const element = testCase.outcome === 'error' ? 'error' : 'failure'
    lines.push(`${open}>`)
    lines.push(`      <${element} message="${xmlAttribute(first)}" type="${element === 'error' ? 'CaseError' : 'ExpectationFailed'}">${xmlText(text)}</${element}>`)
    lines.push('    </testcase>')
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}
