import { nextTick, ref, type Ref } from 'vue'

/**
 * A menu button's popover, as any menu behaves (WAI-ARIA's menu button):
 * opening puts the focus on the first item so the keyboard can go on from
 * there, arrow keys move between items (wrapping), Home and End go to the
 * first and last, Escape closes it back on the button, choosing an item
 * closes it, and focus leaving the menu and its button (Tab, a click
 * elsewhere) closes it. `beforeOpen` runs once it is open and before the
 * focus moves: what the menu lists is fetched there (the recent workspaces).
 * The logic of MenuPopover.vue, which Copy as and Open workspace both are.
 */
export function useMenuPopover(button: Ref<HTMLElement | null>, menu: Ref<HTMLElement | null>, beforeOpen?: () => Promise<void>) {
  const open = ref(false)

  const items = (): HTMLElement[] => [...(menu.value?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]

  async function toggle(): Promise<void> {
    open.value = !open.value
    if (!open.value) return
    await beforeOpen?.()
    await nextTick()
    items()[0]?.focus()
  }

  function close(): void {
    open.value = false
  }

  function onMenuKeydown(event: KeyboardEvent): void {
    const entries = items()
    const at = entries.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      // Escape closes this menu only, not the dialog or panel it stands in.
      event.preventDefault()
      event.stopPropagation()
      open.value = false
      button.value?.focus()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      entries[(at + (event.key === 'ArrowDown' ? 1 : -1) + entries.length) % entries.length]?.focus()
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      entries[event.key === 'Home' ? 0 : entries.length - 1]?.focus()
    }
  }

  /** A click on an item (the item's own handler has run): the choice is made, the menu goes. */
  function onMenuClick(event: MouseEvent): void {
    if ((event.target as Element | null)?.closest('[role="menuitem"]')) open.value = false
  }

  function onFocusOut(event: FocusEvent): void {
    const next = event.relatedTarget as Node | null
    if (!next || !(event.currentTarget as HTMLElement).contains(next)) open.value = false
  }

  return { open, toggle, close, onMenuKeydown, onMenuClick, onFocusOut }
}
