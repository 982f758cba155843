import { hasInjectionContext, inject, type InjectionKey } from 'vue'
import { systemClock, type Clock } from '../../shared/time/clock'

/**
 * The renderer's clock, for a rule a user relies on (how long a note stays):
 * the real one unless the app provides another (`app.provide(CLOCK, clock)`),
 * as a test does with a clock it moves by hand (test/fixtures/manual-clock.ts).
 */
export const CLOCK: InjectionKey<Clock> = Symbol('clock')

/** The provided clock, else the real one. In a setup store, call it during setup: Pinia runs that in the app's context. */
export function useClock(): Clock {
  return hasInjectionContext() ? inject(CLOCK, systemClock) : systemClock
}
