import type { CompareSide, RunTarget } from '../../../shared/ipc/contract'
import type { QueryRequest } from '../../../shared/query/model'
import { targetText } from '../../../shared/test-cases/target-text'
import { runComparison, type CompareSideTarget } from '../../compare/run-comparison'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { Logger } from '../../logging/logger'
import type { QueryRunner } from '../../http/query-runner'
import type { DomainHandlers } from '../handler-table'

/** "Demo · config production": the side's connection, and what it changes of the request (or the config the request names). */
function sideLabel(name: string, side: RunTarget, request: QueryRequest): string {
  return targetText(name, { api: side.api, config: side.config ?? request.options.config, version: side.version }, ' · ')
}

export function compareHandlers(registry: ConnectionRegistry, runner: QueryRunner, log: Logger): DomainHandlers<'compare:run'> {
  const sideOf = (side: RunTarget, request: QueryRequest): CompareSideTarget => {
    const connection = registry.get(side.connectionId)
    return {
      runner,
      target: registry.target(connection.id),
      // Each side asks its own connection's workspace.
      overrides: { workspace: connection.workspace, api: side.api, config: side.config, version: side.version },
      label: sideLabel(connection.name, side, request),
    }
  }
  return {
    'compare:run': async ({ requestId, request, a, b, depth }, { signal }) => {
      const sides = { a: sideOf(a, request), b: sideOf(b, request) }
      // `query:cancel` with this id stops both sides, as it stops a single run.
      const controller = new AbortController()
      const untrack = runner.track(requestId, () => controller.abort())
      try {
        const result = await runComparison({ requestId, request, depth, ...sides, signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal })
        // The server's words, as every error text that leaves main, go through the log's scrubber.
        const scrubbed = (side: CompareSide): CompareSide => (side.error === null ? side : { ...side, error: log.scrub(side.error) })
        return { ...result, a: scrubbed(result.a), b: scrubbed(result.b) }
      } finally {
        untrack()
      }
    },
  }
}
