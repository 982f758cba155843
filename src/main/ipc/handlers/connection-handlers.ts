import type { TokenManager } from '../../auth/token-manager'
import { testConnection } from '../../connections/connection-check'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { QueryRunner } from '../../http/query-runner'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

type ConnectionChannels =
  | 'connections:list'
  | 'connections:save'
  | 'connections:delete'
  | 'connections:test'
  | 'connections:check'
  | 'connections:duplicate'
  | 'connections:reauth'
  | 'connections:use'
  | 'secrets:set'
  | 'secrets:clear'

export function connectionHandlers(registry: ConnectionRegistry, tokens: TokenManager, runner: QueryRunner): DomainHandlers<ConnectionChannels> {
  return {
    'connections:list': () => registry.list(),
    'connections:save': (input) => registry.save(input),
    'connections:delete': async ({ id }) => ({ deleted: await registry.delete(id) }),
    'connections:test': async ({ connectionId }) => {
      const connection = registry.get(connectionId)
      const checks = await testConnection(tokens, runner, connection, registry.account(connectionId))
      return { ok: checks.every((check) => check.ok), checks, connection: await registry.view(connection) }
    },
    'connections:check': async ({ connection, secret }) => {
      const draft = await registry.draft(connection, secret)
      try {
        const checks = await testConnection(tokens, runner, draft.connection, draft.account, draft.tokenMode)
        return { ok: checks.every((check) => check.ok), checks }
      } finally {
        // The test's token was for the test: nothing keeps it.
        if (draft.account) tokens.drop(draft.account.key)
      }
    },
    'connections:duplicate': ({ connectionId }) => registry.duplicate(connectionId),
    'connections:reauth': async ({ connectionId }) => {
      const account = registry.account(connectionId)
      if (!account) {
        throw new ExplorerError('validation', 'This connection has no client ID: its API is public and needs no token.')
      }
      await tokens.issued(account, 'force')
      return registry.view(registry.get(connectionId))
    },
    'connections:use': async ({ connectionId }) => {
      await registry.use(connectionId)
      return { lastConnectionId: connectionId }
    },
    'secrets:set': async ({ connectionId, secret }) => ({ stored: await registry.setSecret(connectionId, secret) }),
    'secrets:clear': async ({ connectionId }) => ({ cleared: await registry.clearSecret(connectionId) }),
  }
}
