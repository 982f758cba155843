/**
 * Token requests allowed per account and workspace in a sliding window (one
 * hour by default). Past the limit the caller learns when the oldest request
 * leaves the window.
 */

export type QuotaDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export class TokenQuota {
  private readonly requests = new Map<string, number[]>()

  constructor(
    private readonly limit: number,
    private readonly windowMs = 3_600_000,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): QuotaDecision {
    const now = this.now()
    const recent = (this.requests.get(key) ?? []).filter((at) => at > now - this.windowMs)
    if (recent.length >= this.limit) {
      this.requests.set(key, recent)
      const oldest = recent[0] ?? now
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) }
    }
    recent.push(now)
    this.requests.set(key, recent)
    return { allowed: true }
  }
}
