import { computed, ref } from 'vue'
import { errorMessage, ExplorerClientError } from '../../api/explorer-client'
import { useModalDialog } from '../../composables/useModalDialog'

/** Main refused the name because another query has it (as opposed to an empty or invalid name). */
function nameTaken(e: unknown): boolean {
  return e instanceof ExplorerClientError && (e.error.problems ?? []).some((problem) => problem.field === 'name' && /taken/.test(problem.message))
}

/** What the query name dialog asks with: its props. */
export interface QueryNameRequest {
  title: string
  intro?: string
  initial: string
  submitLabel: string
  save: (name: string, replace: boolean) => Promise<void>
  /** `save` can save over another query of that name. */
  canReplace?: boolean
  /** The box's name, when it names something else than a query (a workspace). */
  label?: string
  /** What an empty box is told. */
  emptyProblem?: string
}

/**
 * Asks for a query's name and hands it to `save`; what main refuses shows in
 * the dialog, which stays open. A name another query has can be saved over
 * ("Replace"), when `save` can do that.
 */
export function useQueryNameDialog(
  initial: string,
  save: (name: string, replace: boolean) => Promise<void>,
  canReplace: boolean,
  done: () => void,
  cancel: () => void,
  emptyProblem = 'Type a name for the query.',
) {
  const { dialog, once } = useModalDialog()
  const name = ref(initial)
  const problem = ref<string | null>(null)
  const busy = ref(false)
  /** The name typed is another query's: "Replace" saves over it. */
  const clash = ref(false)
  const trimmed = computed(() => name.value.trim())

  async function submit(replace = false): Promise<void> {
    if (busy.value) return
    if (!trimmed.value) {
      problem.value = emptyProblem
      return
    }
    busy.value = true
    problem.value = null
    clash.value = false
    try {
      await save(trimmed.value, replace)
      once(done)
    } catch (e) {
      problem.value = errorMessage(e)
      clash.value = canReplace && nameTaken(e)
    } finally {
      busy.value = false
    }
  }

  function onInput(): void {
    problem.value = null
    clash.value = false
  }

  return { dialog, name, problem, clash, busy, submit, onInput, dismiss: () => once(cancel) }
}
