import { ExplorerError } from '../../shared/ipc/errors'

/** A page the service sent that the export cannot read, said as the user reads it. */
export function unreadablePage(format: string, reason: string): ExplorerError {
  return new ExplorerError('bad_response', `The service's ${format} answer cannot be read: ${reason}`)
}
