import type { HistoryStore } from '../../history/history-store'
import type { DomainHandlers } from '../handler-table'

export function historyHandlers(history: HistoryStore): DomainHandlers<'history:list' | 'history:clear'> {
  return {
    'history:list': ({ text, limit }) => history.list({ text, limit }),
    'history:clear': () => history.clear(),
  }
}
