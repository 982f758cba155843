import { computed, ref } from 'vue'
import { EXPECTATION_KEYS, expectationsText, problemText, readExpectations } from '../../../shared/test-cases/expectations-input'
import { caseSubject } from '../../../shared/test-cases/run-view'
import type { TestCase } from '../../../shared/test-cases/test-case'
import { errorMessage } from '../../api/explorer-client'
import { useTestsStore } from '../../stores/tests'
import { useModalDialog } from '../../composables/useModalDialog'

/**
 * The editor of one case: its name and its expectations as JSON, checked
 * against the schema as the user types (each problem names the field and
 * the rule); Save sends them to main, which checks them again.
 */
export function useExpectationsEditor(testCase: TestCase, done: (name: string) => void, cancel: () => void) {
  const tests = useTestsStore()
  const { dialog, once } = useModalDialog()

  const name = ref(testCase.name)
  const text = ref(expectationsText(testCase.expect))
  const saving = ref(false)
  /** Main's refusal (a name taken), in its words. */
  const failure = ref<string | null>(null)

  const read = computed(() => readExpectations(text.value))
  const problems = computed(() => (read.value.ok ? [] : read.value.problems.map(problemText)))
  const nameProblem = computed(() => (name.value.trim() === '' ? 'Name: give the test a name.' : name.value.trim().length > 200 ? 'Name: at most 200 characters.' : null))
  const subject = computed(() => caseSubject(testCase))
  const keys = EXPECTATION_KEYS.join(', ')

  const textarea = ref<HTMLTextAreaElement | null>(null)
  const nameInput = ref<HTMLInputElement | null>(null)

  async function save(): Promise<void> {
    failure.value = null
    if (nameProblem.value) {
      nameInput.value?.focus()
      return
    }
    const result = read.value
    if (!result.ok) {
      textarea.value?.focus()
      return
    }
    const newName = name.value.trim()
    // Nothing changed: nothing to send (and the case's last outcome still holds).
    if (newName === testCase.name && expectationsText(result.expect) === expectationsText(testCase.expect)) {
      once(cancel)
      return
    }
    saving.value = true
    try {
      await tests.edit(testCase.name, result.expect, newName)
      once(() => done(newName))
    } catch (e) {
      failure.value = errorMessage(e)
    } finally {
      saving.value = false
    }
  }

  const dismiss = () => once(cancel)

  return { dialog, name, text, saving, failure, problems, nameProblem, subject, keys, textarea, nameInput, save, dismiss }
}
