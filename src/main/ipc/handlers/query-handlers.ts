import { ApiDescriptionSchema } from '../../../shared/api-description'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import { messageOf, parseJson } from '../../query/response-body'
import type { QueryRunner } from '../../query/query-runner'
import type { DomainHandlers } from '../handler-table'

export function queryHandlers(
  registry: ConnectionRegistry,
  runner: QueryRunner,
): DomainHandlers<'api:describe' | 'query:run' | 'query:cancel'> {
  return {
    'api:describe': async ({ connectionId, api }) => {
      const connection = registry.get(connectionId)
      const version = connection.version ? `/${encodeURIComponent(connection.version)}` : ''
      const url = `${connection.queryUrl.replace(/\/+$/, '')}${version}/${encodeURIComponent(connection.workspace)}/api/${encodeURIComponent(api)}/`
      // The description is public on our service; a deployment that protects
      // it gets the token only when it asks for one.
      let response = await runner.get(url, null)
      if (response.status === 401) response = await runner.get(url, registry.account(connectionId))
      if (response.status === 404) return null
      if (response.status >= 400) {
        throw new ExplorerError(
          response.status === 401 || response.status === 403 ? 'auth' : 'http',
          `The API description could not be read (${response.status}: ${messageOf(response.body) ?? 'no reason given'}).`,
          { status: response.status },
        )
      }
      const parsed = ApiDescriptionSchema.safeParse(parseJson(response.body, 'API description'))
      if (!parsed.success) {
        // A deployment without our extension may answer something else here:
        // treat it as "no description" so the user can still type endpoints.
        return null
      }
      return parsed.data
    },
    'query:run': ({ connectionId, requestId, request }) => runner.run(requestId, registry.target(connectionId), request),
    'query:cancel': async ({ requestId }) => ({ cancelled: runner.cancel(requestId) }),
  }
}
