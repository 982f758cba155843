import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

export type TestChannel = 'tests:run' | 'tests:status' | 'tests:cancel' | 'tests:add-from-query' | 'tests:edit' | 'tests:delete' | 'tests:update-snapshot'

// PLACEHOLDER: replaced by the test-case implementation.
export function testHandlers(): DomainHandlers<TestChannel> {
  const todo = async (): Promise<never> => {
    throw new ExplorerError('not_found', 'Test cases are not built yet.')
  }
  return {
    'tests:run': todo,
    'tests:status': todo,
    'tests:cancel': todo,
    'tests:add-from-query': todo,
    'tests:edit': todo,
    'tests:delete': todo,
    'tests:update-snapshot': todo,
  }
}
