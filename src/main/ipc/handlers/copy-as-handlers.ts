import { curlText } from '../../../shared/copy-as/copy-as'
import { SECRET_VARIABLE } from '../../../shared/copy-as/copy-plan'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { DomainHandlers } from '../handler-table'

/** The built-in Demo of this launch: its connection id and the secret its embedded service made at start. */
export interface DemoSecret {
  connectionId: string
  secret: string
}

export const NOT_THE_DEMO = `Only the built-in Demo can be copied with its secret filled in; for any other connection, copy as curl and set ${SECRET_VARIABLE} to its client secret.`

/**
 * "Copy as → curl, with the Demo's secret": the one reply that carries a
 * secret to the window, on the user's explicit choice, and only the Demo's:
 * it is made anew at every start and opens only the service the app runs on
 * this machine (docs/SECURITY.md). A saved connection's secret never leaves
 * the main process; asking for one is refused before anything is read.
 */
export function copyAsHandlers(registry: ConnectionRegistry, demo: DemoSecret | null): DomainHandlers<'copy-as:demo-with-secret'> {
  return {
    'copy-as:demo-with-secret': async ({ connectionId, request }) => {
      if (!demo || connectionId !== demo.connectionId) throw new ExplorerError('validation', NOT_THE_DEMO)
      return { text: curlText(registry.get(connectionId), request, { secret: demo.secret }) }
    },
  }
}
