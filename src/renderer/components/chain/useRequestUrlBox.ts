import { storeToRefs } from 'pinia'
import { computed, nextTick, ref, watch } from 'vue'
import { useCopyFeedback } from '../../clipboard/copy-text'
import { useChainStore } from '../../stores/chain'
import { useQueryStore } from '../../stores/query'

/**
 * The request URL box: shows the chain as a URL, and reads a URL typed or
 * pasted into it back into the chain. A URL that does not read leaves the
 * chain as it was and says why under the box.
 */
/** The box's element id (RequestUrlBox.vue). */
export const REQUEST_URL_ID = 'request-url'

export function useRequestUrlBox() {
  const editor = useChainStore()
  const query = useQueryStore()
  const { requestUrl } = storeToRefs(editor)

  /** What the user typed, while it differs from the chain's own URL. */
  const draft = ref<string | null>(null)
  const message = ref<string | null>(null)
  /** Where the URL last read came from, when that is not the current connection; stays until the chain changes. */
  const note = ref<string | null>(null)
  const shown = computed(() => draft.value ?? requestUrl.value)
  const { message: copied, copy } = useCopyFeedback()

  // The chain changed elsewhere (a card, a facet): the box follows it and an old complaint goes. Not while the
  // user is writing in the box: a change then is the app's own (the starting chain as the API's description
  // arrives), and the URL being typed or pasted is newer.
  watch(requestUrl, () => {
    if (draft.value !== null && document.activeElement?.id === REQUEST_URL_ID) return
    draft.value = null
    message.value = null
    note.value = null
  })

  function onInput(text: string): void {
    draft.value = text === requestUrl.value ? null : text
  }

  async function apply(): Promise<boolean> {
    const text = draft.value
    if (text === null) return true
    if (text.trim() === '') {
      draft.value = null
      return true
    }
    const outcome = await editor.replaceFromUrl(text)
    if (!outcome.ok) {
      message.value = outcome.message
      return false
    }
    // The watcher above clears the note on the chain's new URL: set it once that has run.
    await nextTick()
    draft.value = null
    message.value = null
    note.value = outcome.note
    return true
  }

  /** A paste replaces the whole chain at once: no need to leave the box first. */
  async function onPaste(): Promise<void> {
    // The pasted text lands (and the input event fires) after the paste event: read it a task later.
    await new Promise((resolve) => setTimeout(resolve, 0))
    await apply()
  }

  async function onKeydown(event: KeyboardEvent): Promise<void> {
    if (event.key === 'Escape' && draft.value !== null) {
      event.preventDefault()
      event.stopPropagation()
      draft.value = null
      message.value = null
      return
    }
    if (event.key !== 'Enter') return
    // Enter reads the URL (a URL has no line breaks); Ctrl/Cmd+Enter reads it and runs.
    event.preventDefault()
    event.stopPropagation()
    const ok = await apply()
    if (ok && (event.ctrlKey || event.metaKey) && !query.running) await query.run()
  }

  const copyUrl = () => copy(requestUrl.value, 'the request URL')

  return { shown, message, note, copied, onInput, apply, onPaste, onKeydown, copyUrl, canCopy: computed(() => requestUrl.value !== '') }
}
