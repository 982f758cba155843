import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * The form of the next experiment: A and B from the start (they cannot be
 * removed), sides added up to five and removed from C on; while one runs,
 * its phase and count in a progress bar, and Cancel in place of Run.
 */

const fake = bridgeForFile()

async function mount() {
  const pinia = demoWindow(fake, {
    ...NOTHING_KEPT,
    'experiments:cancel': { runId: 'r1', state: 'cancelled', set: 'World cities', phase: 'cancelled', done: 12, total: 72, durationMs: 1, experimentId: null, message: null },
  })
  const [{ default: ExperimentSides }, { useExperimentsStore }, { useConnectionsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentSides.vue'),
    import('../../src/renderer/stores/experiments'),
    import('../../src/renderer/stores/connections'),
  ])
  await useConnectionsStore(pinia).load()
  const store = useExperimentsStore(pinia)
  await settle()
  const screen = await render(ExperimentSides, { global: { plugins: [pinia] } })
  return { screen, store }
}

describe('ExperimentSides', () => {
  it('starts with A and B on the connection, adds sides up to five, removes from C on', async () => {
    const { screen, store } = await mount()
    const sides = screen.getByRole('group', { name: 'Sides' })
    await expect.element(sides.getByRole('combobox', { name: 'Side A connection' })).toHaveValue('c1')
    await expect.element(sides.getByRole('combobox', { name: 'Side B config' })).toHaveValue('default')
    await expect.element(sides.getByRole('combobox', { name: 'Side A config' }).getByRole('option', { name: "The template's own" })).toBeInTheDocument()
    expect(sides.getByRole('button', { name: /^Remove side/ }).elements()).toHaveLength(0)
    for (let i = 0; i < 3; i++) await sides.getByRole('button', { name: 'Add side' }).click()
    await expect.element(sides.getByRole('combobox', { name: 'Side E config' })).toBeVisible()
    await expect.element(sides.getByRole('button', { name: 'Add side' })).toBeDisabled()
    await sides.getByRole('button', { name: 'Remove side D' }).click()
    expect(store.sides).toHaveLength(4)
    await expect.element(sides.getByRole('combobox', { name: 'Side D config' })).toBeVisible()
    await expect.element(sides.getByRole('combobox', { name: 'Side E config' })).not.toBeInTheDocument()
  })

  it('shows a running experiment with its phase and count, and cancels it', async () => {
    const { screen, store } = await mount()
    store.run = { runId: 'r1', state: 'running', set: 'World cities', phase: 'B: Demo, config production', done: 12, total: 72, durationMs: 1, experimentId: null, message: null }
    const progress = screen.getByRole('progressbar', { name: 'Experiment progress' })
    await expect.element(progress).toHaveAttribute('aria-valuetext', 'B: Demo, config production: 12 of 72 queries')
    await expect.element(screen.getByText('B: Demo, config production · 12 of 72 queries')).toBeVisible()
    expect(screen.getByRole('button', { name: 'Run experiment' }).elements()).toHaveLength(0)
    await expect.element(screen.getByRole('combobox', { name: 'Depth' })).toBeDisabled()
    await screen.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => fake.calls.some((call) => call.channel === 'experiments:cancel')).toBe(true)
    await expect.element(screen.getByRole('button', { name: 'Run experiment' })).toBeVisible()
  })
})
