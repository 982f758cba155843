import { nextTick, onBeforeUnmount, onMounted, ref, type Ref } from 'vue'

/** Room kept between the popover and the window's edges. */
const MARGIN = 8
const GAP = 6

/**
 * The column chooser's popover: opens from its button, closes on Escape or a
 * click elsewhere, and is placed under the button (or above it, where there is
 * more room) so that all of it is inside the window.
 */
export function useColumnChooser() {
  const open = ref(false)
  const root: Ref<HTMLElement | null> = ref(null)
  const popover: Ref<HTMLElement | null> = ref(null)
  const position = ref<Record<string, string>>({})

  function place(): void {
    const button = root.value?.querySelector('button')
    const box = popover.value
    if (!open.value || !button || !box) return
    const anchor = button.getBoundingClientRect()
    const width = box.offsetWidth
    const height = box.scrollHeight + (box.offsetHeight - box.clientHeight)
    // Right-aligned with the button, as a menu from the toolbar's right end reads; pushed in from either edge.
    const left = Math.max(MARGIN, Math.min(anchor.right - width, innerWidth - MARGIN - width))
    const below = innerHeight - anchor.bottom - GAP - MARGIN
    const above = anchor.top - GAP - MARGIN
    const downwards = height <= below || below >= above
    const maxHeight = Math.min(320, downwards ? below : above)
    const top = downwards ? anchor.bottom + GAP : anchor.top - GAP - Math.min(height, maxHeight)
    position.value = { left: `${left}px`, top: `${top}px`, maxHeight: `${maxHeight}px` }
  }

  async function toggle(): Promise<void> {
    open.value = !open.value
    if (!open.value) return
    // Measured where it is first drawn, then moved: its width is its content's.
    position.value = { left: `${MARGIN}px`, top: '0px' }
    await nextTick()
    place()
  }

  const onDocument = (event: Event) => {
    if (open.value && root.value && !root.value.contains(event.target as Node)) open.value = false
  }
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open.value) {
      event.stopPropagation()
      open.value = false
      root.value?.querySelector<HTMLButtonElement>('button')?.focus()
    }
  }
  onMounted(() => {
    document.addEventListener('pointerdown', onDocument)
    window.addEventListener('resize', place)
    // The page can scroll under a fixed popover (a short window): it follows its button.
    document.addEventListener('scroll', place, true)
  })
  onBeforeUnmount(() => {
    document.removeEventListener('pointerdown', onDocument)
    window.removeEventListener('resize', place)
    document.removeEventListener('scroll', place, true)
  })
  return { open, root, popover, position, onKeydown, toggle }
}
