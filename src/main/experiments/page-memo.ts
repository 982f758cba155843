import type { QueryRequest } from '../../shared/query/model'
import type { QueryReply } from '../../shared/query/query-reply'
import type { PageRunner } from '../evaluation/run-set'
import type { QueryTarget } from '../http/query-runner'

/**
 * A runner that asks each page once within one experiment: two sides on
 * the same target, and the attribution's last prefix (the whole template on
 * the baseline's target), reuse the answers already fetched instead of
 * asking the service again. A failed page is not kept, so it is asked again.
 */
export function pageMemo(runner: PageRunner): PageRunner & { reused: () => number } {
  const answers = new Map<string, Promise<QueryReply>>()
  let reused = 0
  return {
    reused: () => reused,
    run(requestId: string, target: QueryTarget, request: QueryRequest, options?: { fresh?: boolean; signal?: AbortSignal | undefined }) {
      const key = `${target.key}\u0000${target.queryUrl}\u0000${target.version ?? ''}\u0000${JSON.stringify(request)}`
      const known = answers.get(key)
      if (known) {
        reused++
        return known
      }
      const asked = runner.run(requestId, target, request, options)
      answers.set(key, asked)
      asked.catch(() => answers.delete(key))
      return asked
    },
  }
}
