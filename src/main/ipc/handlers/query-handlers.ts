import type { ConnectionRegistry } from '../../connections/connection-registry'
import { describeApi } from '../../connections/connection-check'
import type { HistoryStore } from '../../history/history-store'
import { RunHistory } from '../../history/run-history'
import type { RunConnection } from '../../history/run-record'
import type { Logger } from '../../logging/logger'
import type { QueryRunner } from '../../http/query-runner'
import type { DescriptionAbsence } from '../../../shared/api-description'
import type { HistoryEntry, IpcFailure, QueryReply } from '../../../shared/ipc/contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

export function queryHandlers(
  registry: ConnectionRegistry,
  runner: QueryRunner,
  history?: { store: HistoryStore; log: Logger },
): DomainHandlers<'api:describe' | 'api:learn' | 'query:run' | 'query:cancel'> {
  const runs = history ? new RunHistory(history.store, history.log) : null
  const scrub = (text: string) => history?.log.scrub(text) ?? text
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
    'query:run': async ({ connectionId, requestId, request, fresh, keepOutOfHistory, continues }, { signal }) => {
      const startedAt = Date.now()
      const started = performance.now()
      let reply: QueryReply | undefined
      let error: unknown
      try {
        reply = await runner.run(requestId, registry.target(connectionId), request, { fresh: fresh ?? false, signal })
      } catch (e) {
        error = e
      }
      // Written before the answer goes back, and carried by it: the window's History adds it without asking again.
      const outcome = { startedAt, durationMs: performance.now() - started, connectionId, connection: connectionOf(connectionId), request, reply, error }
      const historyEntry = runs && !keepOutOfHistory ? await runs.record(requestId, outcome, continues) : null
      if (!reply) throw historyEntry && error instanceof ExplorerError ? new RecordedRunError(error, historyEntry, scrub) : error
      return historyEntry ? { ...reply, historyEntry } : reply
    },
    'query:cancel': async ({ requestId }) => ({ cancelled: runner.cancel(requestId) }),
  }
}

/** A failed run's error as the window gets it: with the History entry the failure made, as a reply carries its own. */
class RecordedRunError extends ExplorerError {
  private readonly historyEntry: HistoryEntry

  /** `scrub` is what the dispatcher does to the error's message, done to the entry's copy of it too. */
  constructor(cause: ExplorerError, entry: HistoryEntry, scrub: (text: string) => string) {
    super(cause.code, cause.message, cause.extra)
    this.historyEntry = entry.error ? { ...entry, error: { ...entry.error, message: scrub(entry.error.message) } } : entry
  }

  override toIpc(): IpcFailure {
    return { ...super.toIpc(), historyEntry: this.historyEntry }
  }
}
