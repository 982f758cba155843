import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { render } from 'vitest-browser-vue'
import ToastStack from '../../src/renderer/components/feedback/ToastStack.vue'
import { CLOCK } from '../../src/renderer/composables/clock'
import { useToastsStore } from '../../src/renderer/stores/toasts'
import { ManualClock } from '../fixtures/manual-clock'

const columns: HTMLElement[] = []
afterEach(() => {
  for (const column of columns.splice(0)) column.remove()
})

/**
 * The stack on a clock the test moves (a note's time is up when the test says so), at the foot of a column as in
 * the window: the notes rise from there over what is above.
 */
async function mount() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const clock = new ManualClock()
  const column = document.body.appendChild(document.createElement('div'))
  columns.push(column)
  column.style.cssText = 'position: fixed; bottom: 60px; left: 0; width: 320px'
  const screen = await render(ToastStack, { container: column, global: { plugins: [pinia], provide: { [CLOCK as symbol]: clock } } })
  return { screen, clock, toasts: useToastsStore() }
}

/** Moves the clock on and lets what woke up (a note leaving) reach the page. */
async function advance(clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms)
  for (let i = 0; i < 3; i++) await Promise.resolve()
  await nextTick()
}

const alerts = (container: Element) => [...container.querySelectorAll('[role=alert]')].map((alert) => alert.querySelector('.toast__text')!.textContent)

describe('ToastStack', () => {
  it('shows a note in a status region and lets it go by itself; a failure is an alert that stays until dismissed', async () => {
    const { screen, clock, toasts } = await mount()
    // The status region is there before any note, so a screen reader announces what is put into it.
    const status = screen.container.querySelector('[role=status]')!
    expect(status).not.toBeNull()
    toasts.show('New token issued for Demo.')
    toasts.show('Re-authenticate failed: 401.', { tone: 'danger' })
    await nextTick()
    expect(status.textContent).toContain('New token issued for Demo.')
    expect(screen.getByRole('alert').element().textContent).toContain('Re-authenticate failed: 401.')

    await advance(clock, 5_999)
    expect(status.textContent).toContain('New token issued')
    await advance(clock, 1)
    expect(status.textContent).not.toContain('New token issued')
    // An hour on, the failure is still there.
    await advance(clock, 3_600_000)
    expect(screen.getByRole('alert').element().textContent).toContain('Re-authenticate failed')

    await screen.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click()
    expect(screen.container.querySelector('[role=alert]')).toBeNull()
  })

  it('replaces a note of the same key, and keeps one the pointer rests on', async () => {
    const { screen, clock, toasts } = await mount()
    toasts.show('New token issued for Demo.', { key: 'reauth' })
    toasts.show('New token issued for Staging.', { key: 'reauth' })
    await nextTick()
    const status = screen.container.querySelector('[role=status]')!
    expect(status.textContent).not.toContain('Demo')
    expect(status.textContent).toContain('Staging')

    const toast = status.querySelector('.toast')!
    toast.dispatchEvent(new PointerEvent('pointerenter'))
    await advance(clock, 20_000)
    expect(status.textContent).toContain('Staging')

    // Once the pointer leaves, it goes after a while.
    toast.dispatchEvent(new PointerEvent('pointerleave'))
    await advance(clock, 3_000)
    expect(status.textContent).not.toContain('Staging')
  })

  it('shows the same failure once, however often it happens, and at most three notes, the oldest leaving first', async () => {
    const { screen, toasts } = await mount()
    for (let i = 0; i < 4; i++) toasts.show('"bad.csv" was not imported: line 2: "9" is not a grade.', { tone: 'danger' })
    await nextTick()
    expect(alerts(screen.container)).toEqual(['"bad.csv" was not imported: line 2: "9" is not a grade.'])

    for (const name of ['a', 'b', 'c']) toasts.show(`"${name}.csv" was not imported.`, { tone: 'danger' })
    await nextTick()
    // Newest first (the stack is laid out from its foot up: the newest lowest, nearest the run bar).
    expect(alerts(screen.container)).toEqual(['"c.csv" was not imported.', '"b.csv" was not imported.', '"a.csv" was not imported.'])
    toasts.show('Saved world.qxw.json.')
    await nextTick()
    expect(alerts(screen.container)).toEqual(['"c.csv" was not imported.', '"b.csv" was not imported.'])
    expect(screen.container.querySelectorAll('.toast')).toHaveLength(3)
  })

  it('writes each line of a message on a line of its own', async () => {
    const { screen, toasts } = await mount()
    toasts.show('"bad.csv" was not imported: line 2: "9" is not a grade.\nline 3: "x" is not a grade.', { tone: 'danger' })
    await nextTick()
    const text = screen.container.querySelector<HTMLElement>('[role=alert] .toast__text')!
    expect(text.innerText.split('\n')).toEqual(['"bad.csv" was not imported: line 2: "9" is not a grade.', 'line 3: "x" is not a grade.'])
  })
})
