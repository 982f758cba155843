import { computed, ref, watch } from 'vue'
import type { Judge } from '../../../shared/relevance/llm-judge'
import { errorMessage } from '../../api/explorer-client'
import { useLlmJudgesStore } from '../../stores/llm-judges'

interface KeyStatus {
  origin: string
  stored: boolean
  storage: 'os' | 'memory'
}

/** The origin a judge's key is bound to, as main binds it (scheme, host, port of the base URL). */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin
  } catch {
    return baseUrl
  }
}

/**
 * A judge's API key: typed once and sent to main, which keeps it in the OS
 * keychain under the origin of the judge's base URL. The field is emptied
 * as soon as main has it: the window never holds a key in a store and never
 * shows one again; it only says whether one is stored, and where.
 */
export function useJudgeKeyField(props: { judge: Judge }) {
  const store = useLlmJudgesStore()
  const key = ref('')
  const status = ref<KeyStatus | null>(null)
  const busy = ref(false)
  const problem = ref<string | null>(null)

  /** Where the judge's calls go here (the Demo's judge is moved to the demo's own port): its key is bound to that origin. */
  const urlHere = computed(() => store.urlHere(props.judge))
  const origin = computed(() => status.value?.origin ?? originOf(urlHere.value))
  const statusText = computed(() => {
    const found = status.value
    if (!found) return ''
    if (!found.stored) return 'No key stored — not needed for the demo or Ollama'
    return `A key is stored for ${found.origin} (${found.storage === 'os' ? 'OS keychain' : 'in memory until the app closes: no OS keychain here'})`
  })

  async function read(): Promise<void> {
    const name = props.judge.name
    problem.value = null
    try {
      const found = await store.keyStatus(name)
      if (props.judge.name === name) status.value = found
    } catch (e) {
      if (props.judge.name === name) problem.value = `Whether a key is stored could not be read: ${errorMessage(e)}`
    }
  }
  // Another judge, or this one moved to another base URL (edited, or bound elsewhere here): another origin, another key.
  watch(() => [props.judge.name, urlHere.value], () => {
    key.value = ''
    status.value = null
    void read()
  }, { immediate: true })

  async function save(): Promise<void> {
    const typed = key.value
    if (typed === '' || busy.value) return
    busy.value = true
    problem.value = null
    try {
      status.value = await store.setKey(props.judge.name, typed)
    } catch (e) {
      problem.value = `The key was not saved: ${errorMessage(e)}`
    } finally {
      // Never kept, saved or not: typed again if main refused it.
      key.value = ''
      busy.value = false
    }
  }

  async function forget(): Promise<void> {
    if (busy.value) return
    busy.value = true
    problem.value = null
    try {
      await store.clearKey(props.judge.name)
      await read()
    } catch (e) {
      problem.value = `The key was not forgotten: ${errorMessage(e)}`
    } finally {
      busy.value = false
    }
  }

  return { key, status, origin, statusText, busy, problem, save, forget }
}
