import { computed, nextTick, ref, useId, watch } from 'vue'

/**
 * An editable combobox (the WAI-ARIA "list autocomplete" pattern): free text,
 * or one of the offered values. Nothing counts until it is committed (Enter,
 * a pick, or leaving the box), because a committed value may re-run a query.
 */
export function useComboBox(props: { modelValue: string; options: readonly string[] }, commit: (value: string) => void) {
  const id = useId()
  const listId = `${id}-list`
  const text = ref(props.modelValue)
  const open = ref(false)
  /** Typed since the list opened: the list narrows to what matches; opened by the arrow or the button, it shows all. */
  const narrowing = ref(false)
  const active = ref(-1)

  watch(
    () => props.modelValue,
    (value) => (text.value = value),
  )

  const shown = computed(() => {
    if (!narrowing.value) return props.options
    const needle = text.value.trim().toLowerCase()
    return props.options.filter((option) => option.toLowerCase().includes(needle))
  })
  const optionId = (index: number) => `${id}-option-${index}`
  const activeId = computed(() => (open.value && active.value >= 0 && active.value < shown.value.length ? optionId(active.value) : undefined))

  function show(all: boolean): void {
    narrowing.value = !all
    open.value = shown.value.length > 0
    active.value = open.value ? shown.value.indexOf(text.value) : -1
  }

  function close(): void {
    open.value = false
    active.value = -1
  }

  function finish(value: string): void {
    close()
    text.value = value.trim()
    if (text.value !== props.modelValue) commit(text.value)
  }

  function move(by: number): void {
    if (!open.value) {
      // Opening shows where the value is now; the next press moves from there.
      show(true)
      if (active.value >= 0 || !open.value) return
    }
    const count = shown.value.length
    active.value = active.value < 0 ? (by > 0 ? 0 : count - 1) : (active.value + by + count) % count
    void nextTick(() => document.getElementById(optionId(active.value))?.scrollIntoView({ block: 'nearest' }))
  }

  function onInput(event: Event): void {
    text.value = (event.target as HTMLInputElement).value
    show(false)
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (event.altKey) return open.value ? close() : show(true)
      move(event.key === 'ArrowDown' ? 1 : -1)
    } else if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
      event.preventDefault()
      finish(open.value && active.value >= 0 ? shown.value[active.value]! : text.value)
    } else if (event.key === 'Escape') {
      // Escape elsewhere cancels a running query: here it only closes the list, or undoes the typing.
      if (open.value) {
        event.stopPropagation()
        close()
      } else if (text.value !== props.modelValue) {
        event.stopPropagation()
        text.value = props.modelValue
      }
    }
  }

  /** Leaving the box commits what it shows, as a native text field's change would. */
  function onFocusout(event: FocusEvent): void {
    const root = (event.currentTarget as HTMLElement | null) ?? null
    if (root && event.relatedTarget instanceof Node && root.contains(event.relatedTarget)) return
    finish(text.value)
  }

  function toggle(input: HTMLInputElement | null): void {
    if (open.value) close()
    else show(true)
    input?.focus()
  }

  return { listId, text, open, shown, active, activeId, optionId, onInput, onKeydown, onFocusout, toggle, pick: finish }
}
