import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue'

/** The column chooser's popover: opens from its button, closes on Escape or a click elsewhere. */
export function useColumnChooser() {
  const open = ref(false)
  const root: Ref<HTMLElement | null> = ref(null)
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
  onMounted(() => document.addEventListener('pointerdown', onDocument))
  onBeforeUnmount(() => document.removeEventListener('pointerdown', onDocument))
  return { open, root, onKeydown, toggle: () => (open.value = !open.value) }
}
