import { computed, ref, watch } from 'vue'
import { RaterNameSchema } from '../../../shared/relevance/raters'
import { ADJUDICATION_RATER } from '../../../shared/relevance/raters'
import { errorMessage } from '../../api/explorer-client'
import { problemAttrs } from '../../composables/field-problem'
import { useQuerySetsStore } from '../../stores/query-sets'

/**
 * Who the window rates as: asked once (the form is open while the person has
 * not given a name; the OS user name is offered), then kept in the
 * preferences and shown as "Rating as …" with Change. Several people's grades
 * of one set are told apart by this name (issue 35).
 */
export function useRaterName() {
  const sets = useQuerySetsStore()
  const editing = ref(false)
  const draft = ref('')
  const problem = ref<string | null>(null)
  const saving = ref(false)

  /** The name form shows until a name was given once, and on Change. */
  const asking = computed(() => editing.value || sets.rater?.chosen === false)
  const name = computed(() => sets.rater?.name ?? '')

  watch(
    () => sets.rater,
    (rater) => {
      if (rater && !editing.value) draft.value = rater.name
    },
    { immediate: true },
  )

  function change(): void {
    draft.value = name.value
    problem.value = null
    editing.value = true
  }

  function cancel(): void {
    editing.value = false
    problem.value = null
  }

  /** The rule a name keeps, in words, or null when it is good. */
  function ruleBroken(value: string): string | null {
    if (!RaterNameSchema.safeParse(value).success) return 'Your name: give 1 to 200 characters.'
    if (value === ADJUDICATION_RATER) return `Your name: "${ADJUDICATION_RATER}" is the name settled grades go under; choose another.`
    return null
  }

  async function save(): Promise<void> {
    const value = draft.value.trim()
    problem.value = ruleBroken(value)
    if (problem.value) return
    saving.value = true
    try {
      await sets.setRater(value)
      editing.value = false
    } catch (e) {
      problem.value = errorMessage(e)
    } finally {
      saving.value = false
    }
  }

  const nameAttrs = computed(() => problemAttrs(problem.value, 'rater-name-problem', 'rater-name-hint'))

  return { asking, name, draft, problem, saving, nameAttrs, change, cancel, save }
}
