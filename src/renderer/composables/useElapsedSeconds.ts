import { computed, onBeforeUnmount, ref, watch, type ComputedRef, type Ref } from 'vue'

/**
 * Seconds since `startedAt` (a performance.now() time), ticking every 100 ms
 * while `running` and standing still otherwise; 0 before any start.
 */
export function useElapsedSeconds(running: Readonly<Ref<boolean>>, startedAt: Readonly<Ref<number | null>>): ComputedRef<number> {
  const now = ref(performance.now())
  let timer: ReturnType<typeof setInterval> | null = null
  watch(
    running,
    (on) => {
      if (timer) clearInterval(timer)
      timer = on ? setInterval(() => (now.value = performance.now()), 100) : null
    },
    { immediate: true },
  )
  onBeforeUnmount(() => timer && clearInterval(timer))
  return computed(() => (startedAt.value === null ? 0 : Math.max(0, now.value - startedAt.value) / 1000))
}
