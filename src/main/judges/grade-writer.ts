import type { Rating } from '../workspaces/rating-index'

/**
 * A judge's grades into the document in batches (group commit): the first
 * grade is written at once, and those that come while a write is under way
 * wait and go in the next one, together. A rating copies the set's
 * judgments (rating-index.ts), ~6 ms at 190,000 judgments; one copy a batch
 * instead of one a grade keeps the main thread free while a judge grades
 * fast. Each grade's promise settles once its batch is journaled (so a grade
 * counted is a grade that survives a crash), or rejects with why it was refused.
 */
export class GradeWriter {
  private pending: { rating: Rating; settle: (error: string | null) => void }[] = []
  private flushing: Promise<void> | null = null

  constructor(
    /** Takes a batch of one set's ratings; each one's error at its place (null: taken). */
    private readonly write: (ratings: Rating[]) => Promise<(string | null)[]>,
    private readonly maxBatch = 500,
  ) {}

  take(rating: Rating): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ rating, settle: (error) => (error === null ? resolve() : reject(new Error(error))) })
      this.flushing ??= this.flush()
    })
  }

  /** Settles once every grade taken so far is written (or refused). */
  async drained(): Promise<void> {
    while (this.flushing) await this.flushing
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch)
        let errors: (string | null)[]
        try {
          errors = await this.write(batch.map((each) => each.rating))
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          errors = batch.map(() => message)
        }
        batch.forEach((each, index) => each.settle(errors[index] ?? null))
      }
    } finally {
      this.flushing = null
    }
  }
}
