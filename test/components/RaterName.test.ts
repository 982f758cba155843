import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Who the window rates as: the name form while the person has not given one
 * (the OS user name offered), its rules said in words naming the field, the
 * name kept through view-prefs:set; afterwards "Rating as …" with Change.
 */

const fake = bridgeForFile()

async function mount(rater: { name: string; chosen: boolean }) {
  const pinia = demoWindow(fake, { 'sets:rater': rater })
  const [{ default: RaterName }, { useQuerySetsStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/RaterName.vue'),
    import('../../src/renderer/stores/query-sets'),
  ])
  const sets = useQuerySetsStore(pinia)
  await sets.loadRater()
  const screen = await render(RaterName, { global: { plugins: [pinia] } })
  return { screen, sets }
}

const prefsSet = () => fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)

describe('RaterName', () => {
  it('asks the name once, offering the OS user name, refuses a blank or reserved one in words, and keeps the one given', async () => {
    const { screen } = await mount({ name: 'osuser', chosen: false })
    const field = screen.getByRole('textbox', { name: 'Your name as a rater' })
    await expect.element(field).toHaveValue('osuser')
    await userEvent.clear(field)
    await screen.getByRole('button', { name: 'Rate as this name' }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Your name: give 1 to 200 characters.')
    await expect.element(field).toHaveAttribute('aria-invalid', 'true')
    await userEvent.type(field, 'adjudication')
    await userEvent.keyboard('{Enter}')
    await expect.element(screen.getByRole('alert')).toHaveTextContent('"adjudication" is the name settled grades go under')
    expect(prefsSet()).toEqual([])

    fake.answers['sets:rater'] = { name: 'Ann Smith', chosen: true }
    await userEvent.clear(field)
    await userEvent.type(field, '  Ann Smith ')
    await userEvent.keyboard('{Enter}')
    await expect.element(screen.getByText('Rating as')).toBeInTheDocument()
    await expect.element(screen.getByText('Ann Smith')).toBeInTheDocument()
    // Trimmed: a name is what people read in the agreement tables.
    expect(prefsSet()).toEqual([{ rater: 'Ann Smith' }])
  })

  it('shows the name given, and Change opens the form again; Escape leaves it as it was', async () => {
    const { screen } = await mount({ name: 'Ann', chosen: true })
    await expect.element(screen.getByText('Ann')).toBeInTheDocument()
    await screen.getByRole('button', { name: 'Change your name as a rater' }).click()
    const field = screen.getByRole('textbox', { name: 'Your name as a rater' })
    await expect.element(field).toHaveValue('Ann')
    await userEvent.click(field)
    await userEvent.keyboard('{Escape}')
    await expect.element(field).not.toBeInTheDocument()
    expect(prefsSet()).toEqual([])
  })
})
