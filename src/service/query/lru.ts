/**
 * A small least-recently-used memo. The explorer asks the same search again
 * and again (each page, each facet, each filter change), and a broad prefix
 * search costs tens of milliseconds, so the search stage keeps its last results.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    // Re-inserting moves the key to the newest end of the Map's order.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.entries.delete(oldest.value)
    }
  }
}
