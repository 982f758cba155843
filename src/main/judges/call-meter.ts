/**
 * The budget of one judging run (issue 36): at most `calls` requests sent to
 * the model, retries included, and, where the provider reports usage, at most
 * `tokens` tokens (input and output together). The guarded fetch takes one
 * call from it before every request it lets through, so a retry the SDK makes
 * on its own counts like any other request.
 *
 * Calls run a few at a time, and a call reports its usage only when it ends:
 * so each request reserves its estimated tokens (the prompt's, and the
 * answer's expected size) when it is taken, and a request is never started
 * when the tokens used and reserved, with its own, would pass the budget. The
 * answer's reported usage then replaces its reservation; a request whose
 * answer reports none (an error, a retry, a server that counts nothing)
 * keeps its estimate counted.
 */
export interface CallBudget {
  calls: number
  tokens?: number | undefined
}

export interface TokenUsage {
  input: number
  output: number
}

function checkLimit(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`Budget ${field}: must be a whole number of at least 0 (got ${String(value)}).`)
  }
}

/** A count a provider reported: a whole number of at least 0, else nothing (a server may send anything). */
function countOf(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value) : 0
}

export class CallMeter {
  /** Requests sent (reserved) so far. */
  calls = 0
  /** Tokens the answers reported so far. */
  readonly tokens: TokenUsage = { input: 0, output: 0 }
  /** Tokens estimated for the requests whose answers reported no usage (yet): counted against the budget like reported ones. */
  reserved = 0
  /** True once a request was refused because the budget was spent: the run stops there, which is not a failure. */
  stoppedByBudget = false

  constructor(readonly budget: CallBudget) {
    checkLimit(budget.calls, 'calls')
    if (budget.tokens !== undefined) checkLimit(budget.tokens, 'tokens')
  }

  /** Tokens reported and reserved: what the token budget is held against. */
  get counted(): number {
    return this.tokens.input + this.tokens.output + this.reserved
  }

  /** True when a request estimated at `estimatedTokens` would pass the token budget (or it is spent already). */
  wouldPassTokens(estimatedTokens = 0): boolean {
    const limit = this.budget.tokens
    return limit !== undefined && (this.counted >= limit || this.counted + countOf(estimatedTokens) > limit)
  }

  /**
   * Reserves one request and its estimated tokens; false (and
   * stoppedByBudget) when the calls are at the budget, or when the tokens
   * used and reserved, with this request's estimate, would pass it.
   */
  take(estimatedTokens = 0): boolean {
    if (this.calls >= this.budget.calls || this.wouldPassTokens(estimatedTokens)) {
      this.stoppedByBudget = true
      return false
    }
    this.calls++
    this.reserved += countOf(estimatedTokens)
    return true
  }

  /** The usage an answer reported, replacing the reservation its request made (`estimatedTokens`, as given to take). */
  addUsage(usage: TokenUsage, estimatedTokens = 0): void {
    this.tokens.input += countOf(usage.input)
    this.tokens.output += countOf(usage.output)
    this.reserved = Math.max(0, this.reserved - countOf(estimatedTokens))
  }
}
