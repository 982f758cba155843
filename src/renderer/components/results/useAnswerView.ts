import { storeToRefs } from 'pinia'
import { computed, type Ref } from 'vue'
import { optionRows as rowsOf, optionsTitle, selectedText as selectedOf, shownObject, type ObjectEntry, type OptionRow } from '../../../shared/results/answer-view'
import type { SingleAnswer } from '../../../shared/query/single-answer'
import { useChainStore } from '../../stores/chain'

const number = (value: number) => value.toLocaleString('en-US')

/** What the answer views show for count, resultitem and options/<facet>; server text as answer-view.ts shows it. Statistics show in the statistics view. */
export function useAnswerView(answer: Ref<SingleAnswer>) {
  const total = computed(() => (answer.value.type === 'count' ? answer.value.body.total : null))
  const totalText = computed(() => (total.value === null ? '' : `${number(total.value)} ${total.value === 1 ? 'result' : 'results'}`))
  // A statistics answer is read at the chain's cutoff, as the side panel reads it.
  const { cutoff } = storeToRefs(useChainStore())

  const object = computed(() => (answer.value.type === 'resultitem' ? shownObject(answer.value.body) : null))
  const objectId = computed(() => object.value?.id ?? null)
  const objectClasses = computed(() => object.value?.classes ?? [])
  const objectEntries = computed<ObjectEntry[]>(() => object.value?.entries ?? [])
  const itemTitle = computed(() => (answer.value.type === 'resultitem' ? `Result ${answer.value.rank}, column ${answer.value.column}` : ''))

  const facetTitle = computed(() => (answer.value.type === 'options' ? optionsTitle(answer.value.body) : ''))
  const optionRows = computed<OptionRow[]>(() => (answer.value.type === 'options' ? rowsOf(answer.value.body) : []))
  const selectedText = computed(() => (answer.value.type === 'options' ? selectedOf(answer.value.body) : ''))

  return { total, totalText, cutoff, object, objectId, objectClasses, objectEntries, itemTitle, facetTitle, optionRows, selectedText, number }
}
