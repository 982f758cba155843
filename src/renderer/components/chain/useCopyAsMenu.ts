import { ref } from 'vue'
import { COPY_AS_KINDS, COPY_AS_LABELS, SECRET_VARIABLE, copyAsText, type CopyAsKind } from '../../../shared/copy-as/copy-as'
import { copyText } from '../../clipboard/copy-text'
import { useConnectionsStore } from '../../stores/connections'
import { useChainStore } from '../../stores/chain'
import { useToastsStore } from '../../stores/toasts'

/**
 * The "Copy as" menu: the request as curl, TypeScript, Python or its URL,
 * built from the connection's description (it holds no secret), confirmed by
 * a toast that says which variable to set before running it.
 */
export function useCopyAsMenu() {
  const editor = useChainStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const open = ref(false)
  const items = COPY_AS_KINDS.map((kind) => ({ kind, label: COPY_AS_LABELS[kind] }))

  function toggle(): void {
    open.value = !open.value
  }

  async function choose(kind: CopyAsKind): Promise<void> {
    open.value = false
    const connection = connections.selected
    if (!connection) return
    const text = copyAsText(kind, connection, editor.request(editor.responseType, editor.offset, editor.count, true))
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

  /** Arrow keys move between items and Escape closes, back on the button, as in any menu. */
  function onMenuKeydown(event: KeyboardEvent, button: HTMLElement | null): void {
    const menu = event.currentTarget as HTMLElement
    const entries = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')]
    const at = entries.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      open.value = false
      button?.focus()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      entries[(at + (event.key === 'ArrowDown' ? 1 : -1) + entries.length) % entries.length]?.focus()
    }
  }

  /** Focus leaving the menu and its button (Tab, a click elsewhere) closes it. */
  function onFocusOut(event: FocusEvent): void {
    const next = event.relatedTarget as Node | null
    if (!next || !(event.currentTarget as HTMLElement).contains(next)) open.value = false
  }

  return { open, items, toggle, choose, onMenuKeydown, onFocusOut }
}
