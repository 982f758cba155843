import { useModal } from './modal'

/** One answer of a choice dialog; Cancel is always offered besides. */
export interface Choice {
  value: string
  label: string
  /** primary: the answer that keeps the user's work; danger: the one that throws something away. */
  tone?: 'primary' | 'danger'
}

/** A question with a few answers (Save / Discard / Cancel, Delete / Cancel), asked in a modal dialog; one answer comes back. */
export function useChoiceDialog(answer: (value: string) => void, cancel: () => void) {
  const { dialog, once } = useModal()
  const toneClass = (choice: Choice) => (choice.tone === 'primary' ? 'button--primary' : choice.tone === 'danger' ? 'button--danger' : '')
  return {
    dialog,
    toneClass,
    choose: (value: string) => once(() => answer(value)),
    dismiss: () => once(cancel),
  }
}
