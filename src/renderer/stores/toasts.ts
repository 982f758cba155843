import { defineStore } from 'pinia'
import { ref } from 'vue'

export interface Toast {
  id: number
  /** A toast with the key of one already showing replaces it (e.g. the outcome of the latest Re-authenticate). */
  key?: string
  message: string
  /** `info` notes go by themselves; a `danger` one stays until dismissed, as it says what failed. */
  tone: 'info' | 'danger'
}

const INFO_MS = 6_000

/**
 * Short notes about something that just happened (a token issued, a setting
 * saved): shown above the run bar, where they cover no control (ToastStack.vue).
 */
export const useToastsStore = defineStore('toasts', () => {
  const toasts = ref<Toast[]>([])
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let next = 0

  function show(message: string, options: { tone?: Toast['tone']; key?: string; durationMs?: number } = {}): number {
    const toast: Toast = { id: ++next, key: options.key, message, tone: options.tone ?? 'info' }
    const replaced = options.key ? toasts.value.find((t) => t.key === options.key) : undefined
    if (replaced) dismiss(replaced.id)
    toasts.value.push(toast)
    const duration = options.durationMs ?? (toast.tone === 'info' ? INFO_MS : null)
    if (duration !== null) schedule(toast.id, duration)
    return toast.id
  }

  function schedule(id: number, ms: number): void {
    clearTimeout(timers.get(id))
    timers.set(id, setTimeout(() => dismiss(id), ms))
  }

  function dismiss(id: number): void {
    clearTimeout(timers.get(id))
    timers.delete(id)
    toasts.value = toasts.value.filter((t) => t.id !== id)
  }

  /** While the pointer or focus is on a toast it stays, so it can be read to the end (WCAG 2.2.1). */
  function hold(id: number): void {
    clearTimeout(timers.get(id))
    timers.delete(id)
  }

  function release(id: number): void {
    const toast = toasts.value.find((t) => t.id === id)
    if (toast?.tone === 'info') schedule(id, INFO_MS / 2)
  }

  return { toasts, show, dismiss, hold, release }
})
