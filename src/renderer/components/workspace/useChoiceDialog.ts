import { shallowRef } from 'vue'
import { useModalDialog } from '../../composables/useModalDialog'

/** One answer of a choice dialog; Cancel is always offered besides. */
export interface Choice {
  value: string
  label: string
  /** primary: the answer that keeps the user's work; danger: the one that throws something away. */
  tone?: 'primary' | 'danger'
}

/** A question with a few answers (Save / Discard / Cancel, Delete / Cancel), asked in a modal dialog; one answer comes back. */
export function useChoiceDialog(answer: (value: string) => void, cancel: () => void) {
  const { dialog, once } = useModalDialog()
  const toneClass = (choice: Choice) => (choice.tone === 'primary' ? 'button--primary' : choice.tone === 'danger' ? 'button--danger' : '')
  return {
    dialog,
    toneClass,
    choose: (value: string) => once(() => answer(value)),
    dismiss: () => once(cancel),
  }
}

/** A question waiting for its answer: what a ChoiceDialog shows while it is open. */
export interface Question {
  title: string
  message: string
  choices: readonly Choice[]
  answer: (value: string) => void
}

/**
 * Asks a question in a ChoiceDialog and waits for the answer: `question` is
 * what the dialog shows (null while none is asked), `ask` resolves with the
 * value chosen, Cancel's included.
 */
export function useQuestion() {
  const question = shallowRef<Question | null>(null)
  function ask(title: string, message: string, choices: readonly Choice[]): Promise<string> {
    return new Promise((resolve) => {
      question.value = {
        title,
        message,
        choices,
        answer: (value) => {
          question.value = null
          resolve(value)
        },
      }
    })
  }
  return { question, ask }
}
