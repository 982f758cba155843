/**
 * A small least-recently-used memo, bounded by entry count and, optionally,
 * by a total weight (such as the number of results held), so that a few huge
 * values cannot hold the memory that many small ones would share.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>()
  private totalWeight = 0

  constructor(
    private readonly capacity: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get size(): number {
    return this.entries.size
  }

  get weight(): number {
    return this.totalWeight
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    // Re-inserting moves the key to the newest end of the Map's order.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  set(key: K, value: V): void {
    this.delete(key)
    const weight = this.weigh(value)
    // A value heavier than the whole budget would only evict everything else.
    if (weight > this.maxWeight) return
    this.entries.set(key, { value, weight })
    this.totalWeight += weight
    while (this.entries.size > this.capacity || this.totalWeight > this.maxWeight) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.delete(oldest.value)
    }
  }

  private delete(key: K): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.totalWeight -= entry.weight
  }
}
