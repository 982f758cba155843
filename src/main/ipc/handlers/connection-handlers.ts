import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { DomainHandlers } from '../handler-table'

export function connectionHandlers(
  registry: ConnectionRegistry,
): DomainHandlers<'connections:list' | 'connections:save' | 'connections:delete' | 'secrets:set' | 'secrets:clear'> {
  return {
    'connections:list': () => registry.list(),
    'connections:save': (input) => registry.save(input),
    'connections:delete': async ({ id }) => ({ deleted: await registry.delete(id) }),
    'secrets:set': async ({ connectionId, secret }) => ({ stored: await registry.setSecret(connectionId, secret) }),
    'secrets:clear': async ({ connectionId }) => ({ cleared: await registry.clearSecret(connectionId) }),
  }
}
