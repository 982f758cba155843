import type { ConnectionRegistry } from '../../connections/connection-registry'
import { describeApi } from '../../connections/connection-check'
import type { HistoryStore } from '../../history/history-store'
import { RunHistory } from '../../history/run-history'
import type { RunConnection } from '../../history/run-record'
import type { Logger } from '../../logging/logger'
import type { QueryRunner } from '../../http/query-runner'
import type { DescriptionAbsence } from '../../../shared/api-description'
import type { QueryReply } from '../../../shared/ipc/contract'
import type { DomainHandlers } from '../handler-table'

export function queryHandlers(
  registry: ConnectionRegistry,
  runner: QueryRunner,
  history?: { store: HistoryStore; log: Logger },
): DomainHandlers<'api:describe' | 'api:learn' | 'query:run' | 'query:cancel'> {
  const runs = history ? new RunHistory(history.store, history.log) : null
  const connectionOf = (id: string): RunConnection | null => {
    try {
      return registry.get(id)
    } catch {
      return null
    }
  }
  return {
    'api:describe': ({ connectionId, api }, { signal }) =>
      describeApi(runner, registry.get(connectionId), api, registry.account(connectionId), { signal }),
    'api:learn': async ({ connectionId, api }, { signal }) => {
      let absence: DescriptionAbsence | null = null
      const description = await describeApi(runner, registry.get(connectionId), api, registry.account(connectionId), {
        signal,
        absent: (why) => {
          absence = why
        },
      })
      return { description, absence }
    },
    'query:run': async ({ connectionId, requestId, request, fresh, companion, continues }, { signal }) => {
      const startedAt = Date.now()
      const started = performance.now()
      let reply: QueryReply | undefined
      let error: unknown
      try {
        reply = await runner.run(requestId, registry.target(connectionId), request, { fresh: fresh ?? false, signal })
        return reply
      } catch (e) {
        error = e
        throw e
      } finally {
        if (runs && !companion) {
          const outcome = { startedAt, durationMs: performance.now() - started, connectionId, connection: connectionOf(connectionId), request, reply, error }
          await runs.record(requestId, outcome, continues)
        }
      }
    },
    'query:cancel': async ({ requestId }) => ({ cancelled: runner.cancel(requestId) }),
  }
}
