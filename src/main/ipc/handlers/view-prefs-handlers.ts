import type { ViewPrefsStore } from '../../storage/view-prefs-store'
import type { DomainHandlers } from '../handler-table'

export function viewPrefsHandlers(store: ViewPrefsStore): DomainHandlers<'view-prefs:get' | 'view-prefs:set' | 'view-prefs:reset'> {
  return {
    'view-prefs:get': async () => store.get(),
    'view-prefs:set': (patch) => store.update(patch),
    'view-prefs:reset': () => store.reset(),
  }
}
