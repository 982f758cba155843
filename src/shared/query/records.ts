/**
 * Name → value records (`parameters`, `context`) built from user text. Names
 * come from people and pasted URLs, so `__proto__`, `constructor` or
 * `toString` are ordinary names here: they must become own properties and
 * never be read from Object.prototype.
 */

export function hasEntry(record: Record<string, string>, name: string): boolean {
  return Object.hasOwn(record, name)
}

export function getEntry(record: Record<string, string>, name: string): string | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined
}

/** Sets an own property even for `__proto__`, where plain assignment would replace the prototype. */
export function setEntry(record: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true })
  else record[name] = value
}
