import type { QueryReply } from '../../shared/ipc/contract'

export interface ReplyCacheOptions {
  /** How long an answer is reused for an identical request. */
  ttlMs?: number
  maxEntries?: number
  /** Bound on the bytes of the answers kept (as received from the service). */
  maxBytes?: number
}

const DEFAULTS: Required<ReplyCacheOptions> = { ttlMs: 30_000, maxEntries: 200, maxBytes: 32 * 1024 * 1024 }

/**
 * The Query API is stateless: the same request gives the same answer. For a
 * short window identical requests share one answer, bounded in entries and in
 * bytes, the least recently used going first.
 */
export class ReplyCache {
  private readonly entries = new Map<string, { reply: QueryReply; expires: number; size: number }>()
  private bytes = 0
  private readonly options: Required<ReplyCacheOptions>

  constructor(
    options: ReplyCacheOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DEFAULTS, ...options }
  }

  get(key: string): QueryReply | null {
    const entry = this.entries.get(key)
    if (!entry) return null
    if (entry.expires <= this.now()) {
      this.remove(key)
      return null
    }
    // Most recently used last.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.reply
  }

  set(key: string, reply: QueryReply): void {
    const size = reply.bytes + key.length
    if (this.options.ttlMs <= 0 || size > this.options.maxBytes / 4) return
    this.remove(key)
    this.entries.set(key, { reply, expires: this.now() + this.options.ttlMs, size })
    this.bytes += size
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break
      this.remove(oldest)
    }
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  get size(): number {
    return this.entries.size
  }

  private remove(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.bytes -= entry.size
    this.entries.delete(key)
  }
}
