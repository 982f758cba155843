import { describe, expect, it } from 'vitest'
import { getEntry, hasEntry, setEntry } from '../../src/shared/query/records'

/** Name → value records from user text: `__proto__`, `constructor` and `toString` are ordinary names, never read from Object.prototype. */

describe('records', () => {
  it('sets __proto__ as an own entry, leaving the prototype alone', () => {
    const record: Record<string, string> = {}
    setEntry(record, '__proto__', 'x')
    setEntry(record, 'query', 'san')
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
    expect(Object.entries(record)).toEqual([
      ['__proto__', 'x'],
      ['query', 'san'],
    ])
    expect(JSON.stringify(record)).toBe('{"__proto__":"x","query":"san"}')
    expect([hasEntry(record, '__proto__'), getEntry(record, '__proto__')]).toEqual([true, 'x'])
    // Set again, it is replaced like any other entry.
    setEntry(record, '__proto__', 'y')
    expect(getEntry(record, '__proto__')).toBe('y')
  })

  it("finds only a record's own entries, not what Object.prototype has", () => {
    const record: Record<string, string> = { query: 'san' }
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect([hasEntry(record, name), getEntry(record, name)]).toEqual([false, undefined])
    }
    setEntry(record, 'constructor', 'c')
    expect([hasEntry(record, 'constructor'), getEntry(record, 'constructor')]).toEqual([true, 'c'])
    expect(getEntry(record, 'query')).toBe('san')
    expect(getEntry(record, 'missing')).toBeUndefined()
  })

  it('keeps an empty value as an entry', () => {
    const record: Record<string, string> = {}
    setEntry(record, 'value', '')
    expect([hasEntry(record, 'value'), getEntry(record, 'value')]).toEqual([true, ''])
  })
})
