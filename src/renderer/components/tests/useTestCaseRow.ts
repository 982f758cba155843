import { computed, ref, watch, type Ref } from 'vue'
import type { CaseReport } from '../../../shared/test-cases/report'
import { caseSubject, durationText, failureLines, outcomeText } from '../../../shared/test-cases/run-view'
import type { TestCase } from '../../../shared/test-cases/test-case'
import type { CaseState } from '../../stores/tests'

export interface TestCaseRowProps {
  testCase: TestCase
  report: CaseReport | null
  state: CaseState
  index: number
  /** A run is going: Run and Update snapshot wait for it. */
  busy: boolean
}

/** One case's line: what it runs, its last outcome in words and colour, and its failures (open by default, foldable). */
export function useTestCaseRow(props: Readonly<TestCaseRowProps>) {
  const subject = computed(() => caseSubject(props.testCase))
  const outcome = computed(() => {
    if (props.state === 'running') return { tone: 'running', text: 'running…' }
    if (props.state === 'snapshot') return { tone: 'running', text: 'recording…' }
    if (!props.report) return { tone: 'none', text: 'not run' }
    return { tone: props.report.outcome, text: outcomeText(props.report.outcome) }
  })
  const duration = computed(() => (props.report && props.state === 'idle' ? durationText(props.report.durationMs) : ''))
  const failures = computed(() => (props.report && props.report.outcome !== 'passed' && props.state === 'idle' ? failureLines(props.report) : []))
  const hasSnapshot = computed(() => props.testCase.expect.snapshot !== undefined)

  const expanded: Ref<boolean> = ref(true)
  // A new failure shows itself, even when the last one was folded away.
  watch(
    () => props.report,
    () => (expanded.value = true),
  )
  const toggle = () => (expanded.value = !expanded.value)

  const ids = computed(() => {
    const base = `test-case-${props.index}`
    return { item: base, name: `${base}-name`, details: `${base}-details` }
  })

  return { subject, outcome, duration, failures, hasSnapshot, expanded, toggle, ids }
}
