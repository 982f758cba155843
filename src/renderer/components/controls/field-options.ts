/** One choice of a FieldSelect: its value and what it shows. */
export interface FieldOption<T> {
  value: T
  label: string
}

/** Choices that show their own value: depths, significance levels, config names. */
export const plainOptions = <T extends string | number>(values: readonly T[]): FieldOption<T>[] => values.map((value) => ({ value, label: String(value) }))
