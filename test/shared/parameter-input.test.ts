import { describe, expect, it } from 'vitest'
import { inputKind, parameterHint } from '../../src/shared/chain/parameter-input'

describe('inputKind', () => {
  it('takes each data type in its own kind of box, and text for the rest or an unknown type', () => {
    expect([inputKind('INTEGER'), inputKind('DOUBLE'), inputKind('DATE'), inputKind('TUPLE_LIST')]).toEqual(['integer', 'decimal', 'date', 'tuple-list'])
    expect([inputKind('STRING'), inputKind('OBJ'), inputKind(undefined)]).toEqual(['text', 'text', 'text'])
  })
})

describe('parameterHint', () => {
  it('names the parameter and gives an example when a value does not fit its type', () => {
    expect(parameterHint('limit', 'integer', '10.5')).toBe('limit takes a whole number, such as 100000')
    expect(parameterHint('limit', 'integer', '1e3')).toBe('limit takes a whole number, such as 100000')
    expect(parameterHint('weight', 'decimal', '0,5')).toBe('weight takes a number, such as 0.5')
    expect(parameterHint('weight', 'decimal', '.')).toBe('weight takes a number, such as 0.5')
    expect(parameterHint('from', 'date', '31/01/2024')).toBe('from takes a date, such as 2024-01-31')
  })

  it('has nothing to say of a value that fits, once trimmed', () => {
    expect(parameterHint('limit', 'integer', ' -42 ')).toBeNull()
    expect(parameterHint('weight', 'decimal', '-.5')).toBeNull()
    expect(parameterHint('weight', 'decimal', '1.5e-3')).toBeNull()
    expect(parameterHint('from', 'date', '2024-01-31')).toBeNull()
  })

  it('leaves an empty value, and any text or tuple list, to validation', () => {
    expect(parameterHint('limit', 'integer', '   ')).toBeNull()
    expect(parameterHint('name', 'text', 'anything at all')).toBeNull()
    expect(parameterHint('pairs', 'tuple-list', 'not, checked; here')).toBeNull()
  })
})
