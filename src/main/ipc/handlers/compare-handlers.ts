import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

// PLACEHOLDER: replaced by the compare implementation.
export function compareHandlers(): DomainHandlers<'compare:run'> {
  return {
    'compare:run': async () => {
      throw new ExplorerError('not_found', 'Compare is not built yet.')
    },
  }
}
