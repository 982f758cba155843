import { storeToRefs } from 'pinia'
import { computed, ref } from 'vue'
import { JUDGE_PROVIDER_LABELS, judgeRater, type Judge } from '../../../shared/relevance/llm-judge'
import { errorMessage } from '../../api/explorer-client'
import { isDemoJudge, useLlmJudgesStore } from '../../stores/llm-judges'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useToastsStore } from '../../stores/toasts'
import type { FieldOption } from '../controls/field-options'

/** The short provider names of the list (the dialog's select says the long ones). */
const PROVIDER_SHORT: Record<Judge['provider'], string> = { openai: 'OpenAI-compatible', 'azure-openai': 'Azure OpenAI', anthropic: 'Anthropic' }

/**
 * The Evaluation view's Judges part: the workspace's LLM judges listed (the
 * demo's stand-in labelled so), added, edited and deleted through
 * LlmJudgeDialog, and the one chosen for its key and its runs.
 */
export function useJudgesPanel() {
  const store = useLlmJudgesStore()
  const sets = useQuerySetsStore()
  const toasts = useToastsStore()
  const { judges, chosen, running } = storeToRefs(store)

  /** The dialog open: 'new', the judge edited, or null. */
  const dialog = ref<'new' | Judge | null>(null)

  /** How many grades each judge has in the chosen set. */
  const gradeCounts = computed(() => {
    const counts = new Map<string, number>()
    for (const judgment of sets.set?.judgments ?? []) counts.set(judgment.rater, (counts.get(judgment.rater) ?? 0) + 1)
    return counts
  })
  const rows = computed(() =>
    judges.value.map((judge) => ({
      judge,
      name: judge.name,
      rater: judgeRater(judge),
      provider: PROVIDER_SHORT[judge.provider],
      providerTitle: JUDGE_PROVIDER_LABELS[judge.provider],
      model: judge.model,
      // Where its calls go here: the example's demo judge names 127.0.0.1:8080 and follows the Demo to this launch's port.
      baseUrl: store.urlHere(judge),
      baseUrlTitle: store.urlHere(judge) === judge.baseUrl ? undefined : `The file names ${judge.baseUrl}; moved with the Demo connection to where the demo runs now.`,
      demo: isDemoJudge(judge),
      grades: (gradeCounts.value.get(judgeRater(judge)) ?? 0).toLocaleString('en-US'),
    })),
  )
  const judgeOptions = computed<FieldOption<string>[]>(() => judges.value.map((judge) => ({ value: judge.name, label: isDemoJudge(judge) ? `${judge.name} (demo)` : judge.name })))
  const chosenValue = computed({ get: () => chosen.value?.name ?? '', set: (name: string) => (store.chosenName = name) })

  async function remove(judge: Judge): Promise<void> {
    if (!window.confirm(`Delete the judge "${judge.name}" from the workspace? Its grades stay in the sets, under ${judgeRater(judge)}.`)) return
    try {
      await store.remove(judge.name)
    } catch (e) {
      toasts.show(`The judge was not deleted: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  return { judges, chosen, running, rows, judgeOptions, chosenValue, dialog, remove, set: computed(() => sets.set) }
}
