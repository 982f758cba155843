/** The attributes that tie a form field to the message saying what is wrong with it, for `v-bind`. */
export interface ProblemAttrs {
  'aria-invalid': boolean
  'aria-describedby': string | undefined
}

/**
 * A field and its problem message, the one way every form of the window ties them: while there is a problem the
 * field is invalid and described by the message (`problemId`, the id of the element that shows it), so a screen
 * reader reads it when the field takes focus; with none, the field is valid and described by its hint (`hintId`),
 * when it has one.
 */
export function problemAttrs(problem: string | null | undefined, problemId: string, hintId?: string): ProblemAttrs {
  return { 'aria-invalid': Boolean(problem), 'aria-describedby': problem ? problemId : hintId }
}
