/**
 * Work that must not overlap, run one at a time in the order it was asked:
 * the writes of one file (the recent list, the session file) and the reads
 * that must see them. A failure is its caller's; the queue goes on.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve()

  /** Runs `work` once everything asked before it has settled; its result or its failure. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work)
    this.tail = next.catch(() => undefined)
    return next
  }

  /** Settles once everything asked so far has (closing waits for the last write). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined)
  }
}
