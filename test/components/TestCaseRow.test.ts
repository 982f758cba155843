import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import TestCaseRow from '../../src/renderer/components/tests/TestCaseRow.vue'
import { evaluate, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import type { CaseReport } from '../../src/shared/test-cases/report'
import type { TestCase } from '../../src/shared/test-cases/test-case'

/**
 * A failed case as the Tests region shows it: its failures say which item,
 * by name, where it was expected and where it was found, and a snapshot's
 * rank diff compares the recorded ranking with this run (no "B" in it).
 */

const production: RunOutcome = {
  status: 200,
  message: null,
  total: 5628,
  keys: ['71137', '1257416', '1796556', '3168305', '1734052', '298333', '1957691', '117574', '3167796', '1796663'],
  labels: ['Sanaa', 'Sāngli', 'Sanya', 'San Giorgio del Sannio', 'Sandakan', 'Sancti Spíritus', 'Sanga-Sanga', 'Sanandaj', 'San Potito Sannitico', 'Sanming'],
  firstItem: null,
  durationMs: 40,
}

function failed(testCase: TestCase): CaseReport {
  return { name: testCase.name, outcome: 'failed', durationMs: 40, checks: evaluate(testCase.expect, production) }
}

const mount = (testCase: TestCase) => render(TestCaseRow, { props: { testCase, report: failed(testCase), state: 'idle', index: 0, busy: false } })

describe('TestCaseRow', () => {
  it('says a ranking failure with the item\'s name and the rank it was found at', async () => {
    const testCase: TestCase = { name: 'Text ranking puts San Potito Sannitico first', query: 'San, default ranking', expect: { rankAtMost: [{ id: '3167796', rank: 1 }] } }
    const screen = await mount(testCase)
    const why = screen.getByRole('list', { name: `Why “${testCase.name}” failed` })
    await expect.element(why).toHaveTextContent('San Potito Sannitico (3167796) expected at rank 1 or better, found at rank 9')
    expect(why.element().textContent).not.toContain('rank ≤')
  })

  it('shows a snapshot\'s rank diff against the recorded ranking, naming the items it no longer returns by their recorded names', async () => {
    const testCase: TestCase = {
      name: 'Top 5 for "san" as recorded',
      query: 'San, default ranking',
      expect: {
        snapshot: {
          ids: ['3167796', '3168001', '1957691', '3168224', '3168305'],
          names: ['San Potito Sannitico', 'San Martino Sannita', 'Sanga-Sanga', 'San Giuliano del Sannio', 'San Giorgio del Sannio'],
          minRbo: 0.9,
        },
      },
    }
    const screen = await mount(testCase)
    const diff = screen.getByRole('table', { name: 'Rank diff against the snapshot' })
    await expect.element(diff).toBeVisible()
    const gone = diff.getByRole('row').filter({ hasText: '3168001' })
    await expect.element(gone).toHaveTextContent(/^\s*2\s*–\s*gone\s*San Martino Sannita\s*3168001\s*$/)
    await expect.element(diff.getByRole('row').filter({ hasText: '71137' })).toHaveTextContent(/–\s*1\s*new\s*Sanaa/)
    expect(diff.element().textContent).not.toMatch(/(from|in) B\b/)
  })
})
