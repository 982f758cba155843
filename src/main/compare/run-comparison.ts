import type { CompareSide, Comparison } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import { answeredSide, comparison, failedSide } from '../../shared/compare/comparison'
import { rankingRequest, type TargetOverrides } from '../../shared/test-cases/case-request'
import type { QueryRunner, QueryTarget } from '../http/query-runner'

/** One side of a comparison: where it runs, with what overrides, and its name in words. */
export interface CompareSideTarget {
  /** The runner of the side's connection (the app has one for all; the command line one per connection). */
  runner: QueryRunner
  target: QueryTarget
  overrides: TargetOverrides
  label: string
}

export interface ComparisonRun {
  /** Both sides run under ids made from this one. */
  requestId: string
  request: QueryRequest
  depth: number
  a: CompareSideTarget
  b: CompareSideTarget
  signal?: AbortSignal | undefined
}

/**
 * Runs the chain on both sides at once, each asked for its top `depth` with
 * the total and statistics (`results,count`), past the reply cache so each
 * side's duration is its own. A side the service refuses or that gets no
 * answer shows its error beside the other's results; a cancellation, or a
 * request that cannot be sent at all, is thrown.
 */
export async function runComparison(run: ComparisonRun): Promise<Comparison> {
  const side = async (which: 'a' | 'b', spec: CompareSideTarget): Promise<CompareSide> => {
    const request = rankingRequest(run.request, { depth: run.depth, total: true }, spec.overrides)
    const started = performance.now()
    try {
      const reply = await spec.runner.run(`${run.requestId}:compare-${which}`, spec.target, request, { fresh: true, signal: run.signal })
      return answeredSide(spec.label, reply, reply.timings.totalMs, run.depth)
    } catch (error) {
      if (error instanceof ExplorerError && (error.code === 'cancelled' || error.code === 'validation')) throw error
      const status = error instanceof ExplorerError ? (error.extra.status ?? null) : null
      return failedSide(spec.label, status, (error as Error).message, performance.now() - started)
    }
  }
  const [a, b] = await Promise.all([side('a', run.a), side('b', run.b)])
  if (run.signal?.aborted) throw new ExplorerError('cancelled', 'The comparison was cancelled.')
  return comparison(run.depth, a, b)
}
