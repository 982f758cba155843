import { z } from 'zod'
import { moveText } from '../compare/rank-metrics'
import { CheckResultSchema } from './evaluate'
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
  /** The keys of the top items the run saw, best first: what "Update snapshot" records. */
  keys: z.array(z.string()).optional(),
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
 * failureText's lines, kept apart: a server's message or a result's label
 * may hold a line feed of its own, so a terminal prints each line as one
 * (its line feeds escaped) rather than splitting the joined text.
 */
export function failureLines(testCase: CaseReport): string[] {
  if (testCase.outcome === 'error') return [testCase.error ?? 'The case could not run.']
  const lines: string[] = []
  for (const check of testCase.checks.filter((entry) => !entry.passed)) {
    lines.push(`${check.what}: expected ${check.expected}, got ${check.actual}`)
    for (const change of check.changes ?? []) {
      const label = check.labels?.[change.key]
      const name = label && label !== change.key ? `${change.key} ${label}` : change.key
      lines.push(`    ${String(change.rankA ?? '–').padStart(3)} → ${String(change.rankB ?? '–').padEnd(3)} ${moveText(change.move).padEnd(11)} ${name}`)
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
