import type { OptionName, QueryOptions } from './model'

/** The options the request model (OptionsSchema) holds as numbers: derived from it, so a new one shows here. */
export type NumericOptionName = { [K in OptionName]-?: NonNullable<QueryOptions[K]> extends number ? K : never }[OptionName]

/** The numeric options typed into the options form: all but the page size (a list of sizes) and the offset (paging). */
export type TypedOptionName = Exclude<NumericOptionName, 'count' | 'offset'>

/**
 * How the options form asks for a number: its label (also the field's
 * accessible name), what it means, the bounds validation holds it to
 * (validate.ts), its step, and whether it may be left empty.
 */
export interface NumericOptionField {
  name: TypedOptionName
  label: string
  hint: string
  min: number
  max?: number
  step: number
  /**
   * An option that always has a value (rank and column count from 1): what is
   * not a whole number from `min` is not taken, and the field shows the value
   * kept again when left. Otherwise an empty field leaves the option out, and
   * `placeholder` says what the service then does.
   */
  required: boolean
  placeholder?: string
}

/** Each typed option's field, in the form's order; a Record so that TypeScript asks for one per numeric option of the model. */
const FIELDS: Readonly<Record<TypedOptionName, Omit<NumericOptionField, 'name'>>> = {
  rank: { label: 'Rank', hint: 'The 1-based rank of the result asked for', min: 1, step: 1, required: true },
  column: { label: 'Column', hint: "The 1-based column of that result's tuple", min: 1, step: 1, required: true },
  level: {
    label: 'Level',
    hint: 'Depth of result descriptions: 0 ids only, 1 attributes, 2 and more open referenced objects',
    min: 0,
    step: 1,
    required: false,
    placeholder: '1',
  },
  cutoff: { label: 'Cutoff', hint: 'Only results with at least this probability', min: 0, max: 1, step: 0.05, required: false, placeholder: 'none' },
}

export const NUMERIC_OPTION_FIELDS: readonly NumericOptionField[] = (Object.keys(FIELDS) as TypedOptionName[]).map((name) => ({ name, ...FIELDS[name] }))
