import { defineStore } from 'pinia'
import { ref } from 'vue'
import { useClock } from '../composables/clock'

export interface Toast {
  id: number
  /** A toast with the key of one already showing replaces it (e.g. the outcome of the latest Re-authenticate). */
  key?: string
  message: string
  /** `info` notes go by themselves; a `danger` one stays until dismissed, as it says what failed. */
  tone: 'info' | 'danger'
}

const INFO_MS = 6_000
/** The most notes shown at once: a newer one sends the oldest away, so failures that repeat never fill the column. */
export const MAX_TOASTS = 3

/**
 * Short notes about something that just happened (a token issued, a setting
 * saved, a file that was not imported): shown over the foot of the chain
 * column, above the run bar, without moving anything (ToastStack.vue).
 *
 * The rules a user can count on: a note goes by itself after 6 s (not while
 * the pointer or focus is on it); a failure stays until dismissed; a note
 * with the same key, or else the same words and tone, replaces the one
 * showing rather than piling up under it; and at most three show at once,
 * the oldest leaving first. Time runs on the injected clock (useClock).
 */
export const useToastsStore = defineStore('toasts', () => {
  const clock = useClock()
  const toasts = ref<Toast[]>([])
  const timers = new Map<number, AbortController>()
  let next = 0

  function show(message: string, options: { tone?: Toast['tone']; key?: string; durationMs?: number } = {}): number {
    const toast: Toast = { id: ++next, key: options.key, message, tone: options.tone ?? 'info' }
    const replaced = toasts.value.find((t) => (options.key ? t.key === options.key : t.key === undefined && t.message === message && t.tone === toast.tone))
    if (replaced) dismiss(replaced.id)
    toasts.value.push(toast)
    for (const old of toasts.value.slice(0, Math.max(0, toasts.value.length - MAX_TOASTS))) dismiss(old.id)
    const duration = options.durationMs ?? (toast.tone === 'info' ? INFO_MS : null)
    if (duration !== null) schedule(toast.id, duration)
    return toast.id
  }

  function schedule(id: number, ms: number): void {
    cancel(id)
    const timer = new AbortController()
    timers.set(id, timer)
    clock.sleep(ms, timer.signal).then(
      () => dismiss(id),
      () => undefined,
    )
  }

  function cancel(id: number): void {
    timers.get(id)?.abort()
    timers.delete(id)
  }

  function dismiss(id: number): void {
    cancel(id)
    toasts.value = toasts.value.filter((t) => t.id !== id)
  }

  /** While the pointer or focus is on a toast it stays, so it can be read to the end (WCAG 2.2.1). */
  function hold(id: number): void {
    cancel(id)
  }

  function release(id: number): void {
    const toast = toasts.value.find((t) => t.id === id)
    if (toast?.tone === 'info') schedule(id, INFO_MS / 2)
  }

  return { toasts, show, dismiss, hold, release }
})
