import { afterEach, describe, expect, it, vi } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { render } from 'vitest-browser-vue'
import ToastStack from '../../src/renderer/components/feedback/ToastStack.vue'
import { useToastsStore } from '../../src/renderer/stores/toasts'

async function mount() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const screen = await render(ToastStack, { global: { plugins: [pinia] } })
  return { screen, toasts: useToastsStore() }
}

describe('ToastStack', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows a note in a status region and lets it go by itself; a failure is an alert that stays until dismissed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { screen, toasts } = await mount()
    // The status region is there before any note, so a screen reader announces what is put into it.
    const status = screen.container.querySelector('[role=status]')!
    expect(status).not.toBeNull()
    toasts.show('New token issued for Demo.')
    toasts.show('Re-authenticate failed: 401.', { tone: 'danger' })
    await nextTick()
    expect(status.textContent).toContain('New token issued for Demo.')
    expect(screen.getByRole('alert').element().textContent).toContain('Re-authenticate failed: 401.')

    vi.advanceTimersByTime(6_500)
    await nextTick()
    expect(status.textContent).not.toContain('New token issued')
    expect(screen.getByRole('alert').element().textContent).toContain('Re-authenticate failed')

    vi.useRealTimers()
    await screen.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click()
    expect(screen.container.querySelector('[role=alert]')).toBeNull()
  })

  it('replaces a note of the same key, and keeps one the pointer rests on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { screen, toasts } = await mount()
    toasts.show('New token issued for Demo.', { key: 'reauth' })
    toasts.show('New token issued for Staging.', { key: 'reauth' })
    await nextTick()
    const status = screen.container.querySelector('[role=status]')!
    expect(status.textContent).not.toContain('Demo')
    expect(status.textContent).toContain('Staging')

    // Dispatched rather than moved there, so the fake clock keeps the toast's own timer.
    const toast = status.querySelector('.toast')!
    toast.dispatchEvent(new PointerEvent('pointerenter'))
    vi.advanceTimersByTime(20_000)
    await nextTick()
    expect(status.textContent).toContain('Staging')

    // Once the pointer leaves, it goes after a while.
    toast.dispatchEvent(new PointerEvent('pointerleave'))
    vi.advanceTimersByTime(3_500)
    await nextTick()
    expect(status.textContent).not.toContain('Staging')
  })
})
