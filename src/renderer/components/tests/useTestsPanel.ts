import { storeToRefs } from 'pinia'
import { computed, nextTick, ref, shallowRef } from 'vue'
import { durationText, progressText, runCounts, summaryText } from '../../../shared/test-cases/run-view'
import type { TestCase } from '../../../shared/test-cases/test-case'
import { useConnectionsStore } from '../../stores/connections'
import { useTestsStore } from '../../stores/tests'
import { useToastsStore } from '../../stores/toasts'
import { useWorkspaceStore } from '../../stores/workspace'
import { useQuestion } from '../workspace/useChoiceDialog'

/** The element of a case's line, by its place in the list (ids are per place: names can hold anything). */
export const caseElementId = (index: number) => `test-case-${index}`

/**
 * The Tests region: the open workspace's cases with their last outcomes,
 * Run tests (all, or one) on the chosen target with progress and Cancel,
 * Add test from current query, and each case's Edit, Update snapshot and
 * Delete. The tests store talks to main; this asks the user.
 */
export function useTestsPanel() {
  const tests = useTestsStore()
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const { cases, run, reports, error, adding, running } = storeToRefs(tests)

  const root = ref<HTMLElement | null>(null)

  const ready = computed(() => workspace.started && workspace.view !== null)
  const canAdd = computed(() => ready.value && connections.selectedId !== null && workspace.editorRequest.steps.length > 0)
  const counts = computed(() => (run.value ? runCounts(run.value.cases) : null))
  const progress = computed(() => (counts.value ? progressText(counts.value) : ''))
  /** "7 passed, 2 failed", once a run has ended. */
  const summary = computed(() => (run.value && counts.value && run.value.state !== 'running' ? summaryText(counts.value, run.value.state) : ''))
  const summaryTone = computed(() => (!counts.value ? '' : counts.value.failed + counts.value.errors > 0 ? 'bad' : run.value?.state === 'cancelled' ? '' : 'good'))
  const summaryDetail = computed(() => (run.value ? `on ${run.value.target}, in ${durationText(run.value.durationMs)}` : ''))

  const { question, ask } = useQuestion()
  const editing = shallowRef<TestCase | null>(null)

  async function reveal(name: string): Promise<void> {
    await nextTick()
    const index = cases.value.findIndex((testCase) => testCase.name === name)
    const element = index >= 0 ? document.getElementById(caseElementId(index)) : null
    element?.scrollIntoView({ block: 'nearest' })
    element?.focus({ preventScroll: true })
  }

  async function runAll(): Promise<void> {
    await tests.start()
  }

  async function runOne(testCase: TestCase): Promise<void> {
    await tests.start([testCase.name])
  }

  async function add(): Promise<void> {
    const name = await tests.addFromQuery()
    if (!name) return
    toasts.show(`Added the test “${name}”, expecting what the answer shows now. Edit it to keep what matters, then Save workspace.`, { key: 'tests' })
    await reveal(name)
  }

  function edit(testCase: TestCase): void {
    editing.value = testCase
  }

  async function edited(name: string | null): Promise<void> {
    const before = editing.value?.name
    editing.value = null
    if (name === null) {
      if (before) await reveal(before)
      return
    }
    toasts.show(`Saved the test “${name}”. Run it to see it pass or fail; Save workspace to keep it in the file.`, { key: 'tests' })
    await reveal(name)
  }

  async function updateSnapshot(testCase: TestCase): Promise<void> {
    const report = await tests.updateSnapshot(testCase.name)
    if (!report) return
    const depth = cases.value.find((each) => each.name === testCase.name)?.expect.snapshot?.ids.length ?? report.keys?.length ?? 0
    toasts.show(`Recorded the top ${depth} of “${testCase.name}” as its snapshot. Save workspace to keep it in the file.`, { key: 'tests' })
  }

  async function remove(testCase: TestCase): Promise<void> {
    const answer = await ask(`Delete “${testCase.name}”?`, 'The test case is taken out of the workspace; the file keeps it until the workspace is saved.', [
      { value: 'delete', label: 'Delete', tone: 'danger' },
    ])
    if (answer === 'delete' && (await tests.remove(testCase.name))) toasts.show(`Deleted the test “${testCase.name}”.`, { key: 'tests' })
  }

  return {
    root, cases, reports, error, adding, running, ready, canAdd, counts, progress, summary, summaryTone, summaryDetail,
    question, editing,
    runAll, runOne, cancel: () => tests.cancel(), add, edit, edited, updateSnapshot, remove, stateOf: tests.stateOf, caseElementId,
  }
}
