import { nextTick, onMounted, ref, type Ref } from 'vue'

/**
 * A `<dialog>` shown modal as soon as it is mounted, with the focus on its
 * first field (else its first button): the workspace dialogs open on what the
 * user has to answer.
 *
 * `once` lets exactly one outcome through: Chromium may close a modal dialog
 * on Escape without a cancel event (when the page has had no user activation
 * since), so `close` counts as Cancel too, but not after an answer.
 */
export function useModal(): { dialog: Ref<HTMLDialogElement | null>; once: (outcome: () => void) => void } {
  const dialog = ref<HTMLDialogElement | null>(null)
  let ended = false
  function once(outcome: () => void): void {
    if (ended) return
    ended = true
    outcome()
  }
  onMounted(async () => {
    const element = dialog.value
    if (!element) return
    if (!element.open) element.showModal()
    await nextTick()
    const first = element.querySelector<HTMLElement>('input:not([type=hidden]):not([disabled]), select:not([disabled])') ?? element.querySelector<HTMLElement>('[data-autofocus]')
    first?.focus()
    if (first instanceof HTMLInputElement && first.type === 'text') first.select()
  })
  return { dialog, once }
}
