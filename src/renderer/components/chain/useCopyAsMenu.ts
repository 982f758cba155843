import { computed } from 'vue'
import { COPY_AS_KINDS, COPY_AS_LABELS, DEMO_CURL_LABEL, SECRET_VARIABLE, copyAsText, type CopyAsKind } from '../../../shared/copy-as/copy-as'
import { call, errorMessage } from '../../api/explorer-client'
import { copyText } from '../../clipboard/copy-text'
import { useConnectionsStore } from '../../stores/connections'
import { useChainStore } from '../../stores/chain'
import { useToastsStore } from '../../stores/toasts'

/** A menu entry: one of the texts built here, or the Demo's curl that main builds. */
export type CopyAsChoice = CopyAsKind | 'curl-demo'

/**
 * The "Copy as" menu: the request as curl, TypeScript, Python or its URL,
 * built from the connection's description (it holds no secret), confirmed by
 * a toast that says which variable to set before running it. For the
 * built-in Demo only, one more: curl with the Demo's secret filled in, which
 * the main process writes (copy-as:demo-with-secret) and this window only
 * passes to the clipboard, as the user asked. The menu itself is a
 * MenuPopover, which closes it on a choice.
 */
export function useCopyAsMenu() {
  const editor = useChainStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const items = computed<{ kind: CopyAsChoice; label: string }[]>(() => {
    const plain = COPY_AS_KINDS.map((kind) => ({ kind: kind as CopyAsChoice, label: COPY_AS_LABELS[kind] }))
    if (!connections.selected?.builtIn) return plain
    return [plain[0]!, { kind: 'curl-demo', label: DEMO_CURL_LABEL }, ...plain.slice(1)]
  })

  async function choose(kind: CopyAsChoice): Promise<void> {
    const connection = connections.selected
    if (!connection) return
    const request = editor.request(editor.responseType, editor.offset, editor.count, true)
    if (kind === 'curl-demo') return copyDemo(connection.id, request)
    const text = copyAsText(kind, connection, request)
    const label = COPY_AS_LABELS[kind]
    if (!(await copyText(text))) {
      toasts.show(`Could not copy the request as ${label}: the clipboard refused.`, { tone: 'danger', key: 'copy-as' })
      return
    }
    const needsSecret = kind !== 'url' && connection.clientId !== ''
    toasts.show(`Copied the request as ${label}.${needsSecret ? ` Set ${SECRET_VARIABLE} to the client secret before running it.` : ''}`, {
      key: 'copy-as',
    })
  }

  async function copyDemo(connectionId: string, request: ReturnType<typeof editor.request>): Promise<void> {
    let text: string
    try {
      text = (await call('copy-as:demo-with-secret', { connectionId, request })).text
    } catch (error) {
      toasts.show(`Could not copy the request as curl with the Demo's secret: ${errorMessage(error)}`, { tone: 'danger', key: 'copy-as' })
      return
    }
    if (!(await copyText(text))) {
      toasts.show("Could not copy the request as curl with the Demo's secret: the clipboard refused.", { tone: 'danger', key: 'copy-as' })
      return
    }
    toasts.show("Copied the request as curl, with the Demo's secret: it runs as it is, until Query Explorer restarts (the secret changes every start and opens only the Demo on this machine).", {
      key: 'copy-as',
    })
  }

  return { items, choose }
}
