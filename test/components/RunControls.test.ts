import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Run and Cancel: Run sends the editor's chain, Cancel stops it and tells
 * main, and Run again asks the service itself (bypassing the answers shared
 * for 30 s), offered once there is an answer. While a query runs, a progress
 * bar says so.
 */

const fake = bridgeForFile()

const answer = { url: 'http://127.0.0.1/query', status: 200, contentType: 'application/json', bytes: 1, body: { items: [] }, timings: { connectMs: 0, firstByteMs: 1, totalMs: 1 }, cached: false }

async function mount() {
  const pinia = demoWindow(fake, { 'query:cancel': { cancelled: true }, 'history:list': [] })
  fake.hold('query:run')
  const [{ default: RunControls }, { useConnectionsStore }, { useChainStore }] = await Promise.all([
    import('../../src/renderer/components/chain/RunControls.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/chain'),
  ])
  await useConnectionsStore(pinia).load()
  await useChainStore(pinia).loadRequest({ workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'count', options: {} })
  return render(RunControls, { global: { plugins: [pinia] } })
}

const runs = () => fake.held.map((call) => call.request)

describe('RunControls', () => {
  it('runs the chain, shows it running with Cancel, and Cancel tells main', async () => {
    const screen = await mount()
    await expect.element(screen.getByRole('button', { name: 'Run again' })).not.toBeInTheDocument()
    await screen.getByRole('button', { name: /^Run/ }).click()
    await expect.poll(() => runs().length).toBeGreaterThan(0)
    expect(runs()[0]).toMatchObject({ connectionId: 'c1', request: { steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'count' } })
    expect(runs()[0]).not.toHaveProperty('fresh')
    await expect.element(screen.getByRole('progressbar', { name: 'Running query' })).toBeVisible()
    await screen.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => fake.calls.filter((call) => call.channel === 'query:cancel').length).toBeGreaterThan(0)
    await expect.element(screen.getByRole('button', { name: /^Run/ })).toBeVisible()
  })

  it('offers Run again once there is an answer, which asks the service itself', async () => {
    const screen = await mount()
    await screen.getByRole('button', { name: /^Run/ }).click()
    await expect.poll(() => fake.held.length).toBeGreaterThan(0)
    for (const call of fake.held.splice(0)) call.answer(answer)
    await screen.getByRole('button', { name: 'Run again' }).click()
    await expect.poll(() => fake.held.length).toBeGreaterThan(0)
    expect(fake.held.map((call) => call.request)).toContainEqual(expect.objectContaining({ fresh: true, request: expect.objectContaining({ responseType: 'count' }) }))
  })
})
