import type { ConnectionRegistry } from '../../connections/connection-registry'
import { describeApi } from '../../connections/connection-check'
import type { QueryRunner } from '../../query/query-runner'
import type { DomainHandlers } from '../handler-table'

export function queryHandlers(
  registry: ConnectionRegistry,
  runner: QueryRunner,
): DomainHandlers<'api:describe' | 'query:run' | 'query:cancel'> {
  return {
    'api:describe': ({ connectionId, api }, { signal }) =>
      describeApi(runner, registry.get(connectionId), api, registry.account(connectionId), { signal }),
    'query:run': ({ connectionId, requestId, request, fresh }, { signal }) =>
      runner.run(requestId, registry.target(connectionId), request, { fresh: fresh ?? false, signal }),
    'query:cancel': async ({ requestId }) => ({ cancelled: runner.cancel(requestId) }),
  }
}
