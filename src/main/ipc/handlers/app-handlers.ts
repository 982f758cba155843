import type { AppInfo } from '../../../shared/ipc/contract'
import type { DomainHandlers } from '../handler-table'

export function appHandlers(info: () => AppInfo): DomainHandlers<'app:info'> {
  return {
    'app:info': async () => info(),
  }
}
