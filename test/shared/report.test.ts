import { describe, expect, it } from 'vitest'
import { parseXml } from '../fixtures/xml'
import { failureText, summary, toJUnit, type SuiteReport } from '../../src/shared/test-cases/report'


const report: SuiteReport = {
  name: 'world',
  target: 'Demo (config production)',
  durationMs: 1234,
  cases: [
    { name: 'Paris is found', outcome: 'passed', durationMs: 12, checks: [{ what: 'status 200', passed: true, expected: '200', actual: '200' }] },
    {
      name: 'San <default> & "friends"',
      outcome: 'failed',
      durationMs: 30,
      checks: [
        { what: 'status 200', passed: true, expected: '200', actual: '200' },
        {
          what: 'snapshot of the top 2 (RBO ≥ 0.9)',
          passed: false,
          expected: 'RBO ≥ 0.9',
          actual: 'RBO 0.100, 1 of 2 shared',
          changes: [
            { key: 'a', rankA: 1, rankB: null, move: { kind: 'gone' } },
            { key: 'b', rankA: 2, rankB: 1, move: { kind: 'up', by: 1 } },
            { key: '71137', rankA: null, rankB: 2, move: { kind: 'new' } },
          ],
          labels: { a: 'San Potito Sannitico', '71137': 'Sanaa' },
        },
        {
          what: 'San Potito Sannitico (3167796) at rank 1 or better',
          item: 'San Potito Sannitico (3167796)',
          passed: false,
          expected: 'at rank 1 or better',
          actual: 'found at rank 4',
        },
      ],
    },
    { name: 'Bad\u0001name', outcome: 'error', durationMs: 0, checks: [], error: 'The saved query "Nope" is not in the workspace.' },
  ],
}

describe('test run reports', () => {
  it('count outcomes', () => {
    expect(summary(report)).toEqual({ passed: 1, failed: 1, errors: 1 })
  })

  it('say what failed with expected vs actual, and a snapshot rank diff', () => {
    const text = failureText(report.cases[1]!)
    expect(text.split('\n')).toEqual([
      'snapshot of the top 2 (RBO ≥ 0.9): expected RBO ≥ 0.9, got RBO 0.100, 1 of 2 shared',
      '    snapshot  now  move  item',
      '           1    –  gone  San Potito Sannitico (a)',
      '           2    1  ↑1    b',
      '           –    2  new   Sanaa (71137)',
      // A ranking check names its item and says where it was found, in words fit for a test.
      'San Potito Sannitico (3167796) expected at rank 1 or better, found at rank 4',
    ])
    // The snapshot is not a side "B": nothing reads "gone from B" or "new in B".
    expect(text).not.toMatch(/ (from|in) B\b/)
  })

  it('write JUnit XML that a strict parser reads, with counts, failures and errors', () => {
    const elements = parseXml(toJUnit(report))
    const suite = elements.find((element) => element.name === 'testsuite')!
    expect(suite.attributes).toMatchObject({ tests: '3', failures: '1', errors: '1', time: '1.234' })
    const cases = elements.filter((element) => element.name === 'testcase')
    expect(cases.map((element) => element.attributes.name)).toEqual(['Paris is found', 'San <default> & "friends"', 'Badname'])
    const failure = elements.find((element) => element.name === 'failure')!
    expect(failure.attributes.message).toContain('snapshot of the top 2')
    expect(failure.text).toContain('San Potito Sannitico (3167796) expected at rank 1 or better, found at rank 4')
    expect(elements.find((element) => element.name === 'error')!.text).toBe('The saved query "Nope" is not in the workspace.')
  })

  it('keeps a tab or carriage return in an attribute, which a parser would otherwise read as a space', () => {
    const elements = parseXml(toJUnit({ ...report, cases: [{ name: 'a\tb', outcome: 'error', durationMs: 0, checks: [], error: 'first\rline\u0002\nsecond' }] }))
    expect(elements.find((element) => element.name === 'testcase')!.attributes.name).toBe('a\tb')
    const error = elements.find((element) => element.name === 'error')!
    expect(error.attributes.message).toBe('first\rline')
    expect(error.text).toBe('first\rline\nsecond')
  })
})
