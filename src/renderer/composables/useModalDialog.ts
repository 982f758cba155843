import { nextTick, onMounted, ref, watch, type Ref } from 'vue'

const FIRST_FIELD = 'input:not([type=hidden]):not([disabled]), select:not([disabled])'

export interface ModalDialogOptions {
  /**
   * When the dialog is shown: while this reads true (a dialog that stays
   * mounted, like the export or the row detail). Without it the dialog is
   * shown as soon as it is mounted (a dialog mounted only while it is wanted).
   */
  open?: () => boolean
  /** Called before the dialog is shown, to settle its state for this opening. */
  beforeOpen?: () => void
  /**
   * The element to focus on opening, as a selector. By default the first
   * field, else the element marked `data-autofocus`; null leaves it to the
   * browser (the dialog's first focusable element).
   */
  focus?: string | null
}

/**
 * Every modal of the app opens here, one way: `showModal()` (so the page
 * behind is inert and Escape cancels), then the focus on what the user has to
 * answer.
 *
 * `once` lets exactly one outcome through: Chromium may close a modal dialog
 * on Escape without a cancel event (when the page has had no user activation
 * since), so `close` counts as Cancel too, but not after an answer.
 */
export function useModalDialog(options: ModalDialogOptions = {}): {
  dialog: Ref<HTMLDialogElement | null>
  once: (outcome: () => void) => void
} {
  const dialog = ref<HTMLDialogElement | null>(null)
  let ended = false
  function once(outcome: () => void): void {
    if (ended) return
    ended = true
    outcome()
  }

  async function show(): Promise<void> {
    const element = dialog.value
    if (!element || element.open) return
    ended = false
    options.beforeOpen?.()
    element.showModal()
    await nextTick()
    if (options.focus === null) return
    const first = options.focus
      ? element.querySelector<HTMLElement>(options.focus)
      : (element.querySelector<HTMLElement>(FIRST_FIELD) ?? element.querySelector<HTMLElement>('[data-autofocus]'))
    first?.focus()
    // A name to answer (Save query as…) is typed over, as a rename field is.
    if (!options.focus && first instanceof HTMLInputElement && first.type === 'text') first.select()
  }

  const { open } = options
  if (open) {
    watch(
      open,
      (isOpen) => {
        if (isOpen) void show()
        else if (dialog.value?.open) dialog.value.close()
      },
      { flush: 'post' },
    )
  } else {
    onMounted(show)
  }
  return { dialog, once }
}
