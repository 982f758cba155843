import type { DataType } from '../api-description'
import { DECIMAL_PATTERN } from '../number-text'

/**
 * How the chain editor takes a parameter of each data type. Numbers are
 * typed in text boxes (with a numeric keyboard) rather than number inputs, so
 * that what the user typed is what is sent, and a slip is named rather than
 * silently emptied by the browser.
 */

export type ParameterInputKind = 'text' | 'integer' | 'decimal' | 'date' | 'tuple-list'

export function inputKind(type: DataType | undefined): ParameterInputKind {
  switch (type) {
    case 'INTEGER':
      return 'integer'
    case 'DOUBLE':
      return 'decimal'
    case 'DATE':
      return 'date'
    case 'TUPLE_LIST':
      return 'tuple-list'
    default:
      return 'text'
  }
}

const INTEGER = /^-?\d+$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A hint for a value that does not fit its type, or null; empty values are validation's business. */
export function parameterHint(name: string, kind: ParameterInputKind, value: string): string | null {
  const text = value.trim()
  if (text === '') return null
  if (kind === 'integer' && !INTEGER.test(text)) return `${name} takes a whole number, such as 100000`
  if (kind === 'decimal' && !DECIMAL_PATTERN.test(text)) return `${name} takes a number, such as 0.5`
  if (kind === 'date' && !DATE.test(text)) return `${name} takes a date, such as 2024-01-31`
  return null
}
