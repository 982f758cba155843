/**
 * The budget of one judging run (issue 36): at most `calls` requests sent to
 * the model, retries included, and, where the provider reports usage, at most
 * `tokens` tokens (input and output together). The guarded fetch takes one
 * call from it before every request it lets through, so a retry the SDK makes
 * on its own counts like any other request; the client adds the usage each
 * answer reports.
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
  /** True once a request was refused because the budget was spent: the run stops there, which is not a failure. */
  stoppedByBudget = false

  constructor(readonly budget: CallBudget) {
    checkLimit(budget.calls, 'calls')
    if (budget.tokens !== undefined) checkLimit(budget.tokens, 'tokens')
  }

  /** Reserves one request; false (and stoppedByBudget) when the calls or the tokens are at the budget. */
  take(): boolean {
    if (this.calls >= this.budget.calls || (this.budget.tokens !== undefined && this.tokens.input + this.tokens.output >= this.budget.tokens)) {
      this.stoppedByBudget = true
      return false
    }
    this.calls++
    return true
  }

  addUsage(usage: TokenUsage): void {
    this.tokens.input += countOf(usage.input)
    this.tokens.output += countOf(usage.output)
  }
}
