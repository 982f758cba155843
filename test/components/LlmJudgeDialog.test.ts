import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { Judge } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_JUDGE_PROMPT } from '../../src/shared/relevance/llm-judge'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The LLM judge dialog: a new judge with the provider's base URL when none
 * is typed and the schema's defaults, checked before it goes (each problem
 * naming its field, which is marked invalid and described by it: the
 * name, a temperature off its range, Azure without its API version), and an
 * edited judge sent under its previous name.
 */

const fake = bridgeForFile()

async function mount(editing: Judge | null = null) {
  const pinia = demoWindow(fake, { 'sets:get': TWO_QUERY_SET, 'judges:save': judgesView(TWO_QUERY_SET) })
  const [{ default: LlmJudgeDialog }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/LlmJudgeDialog.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(judgesView(TWO_QUERY_SET, editing ? [editing] : []))
  const screen = await render(LlmJudgeDialog, { props: { editing }, global: { plugins: [pinia] } })
  const dialog = screen.getByRole('dialog', { name: editing ? `Edit judge ${editing.name}` : 'Add LLM judge' })
  await expect.element(dialog).toBeVisible()
  return { screen, dialog }
}

const saves = () => fake.calls.filter((call) => call.channel === 'judges:save').map((call) => call.request)

describe('LlmJudgeDialog', () => {
  it("adds a judge: the provider's own base URL when none is typed, the fields typed, the defaults filled", async () => {
    const { screen, dialog } = await mount()
    await expect.element(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveAttribute('placeholder', 'https://api.openai.com/v1')
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('gpt')
    await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill('gpt-4o-mini')
    // The template's name is its label alone; the placeholders' hint is its description.
    await expect.element(dialog.getByRole('textbox', { name: 'Prompt template', exact: true })).toHaveAccessibleDescription(/\{\{query\}\}/)
    await dialog.getByRole('spinbutton', { name: 'Seed', exact: true }).fill('7')
    await dialog.getByRole('textbox', { name: /^Item fields/ }).fill('name, population')
    await expect.element(dialog.getByText(/\{\{item\}\} the item's fields/)).toBeVisible()
    await dialog.getByRole('button', { name: 'Add judge' }).click()
    await expect.poll(() => saves().length).toBe(1)
    expect(saves()[0]).toEqual({
      judge: {
        name: 'gpt', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', temperature: 0, seed: 7, prompt: DEFAULT_JUDGE_PROMPT,
        fields: ['name', 'population'], maxFieldChars: 1000, structured: true, fewShot: 0, fewShotSeed: 1, depth: 10, concurrency: 4,
      },
    })
    await expect.poll(() => screen.emitted().done).toHaveLength(1)
  })

  it('names the field of each problem, marks it invalid, and sends nothing', async () => {
    const { dialog } = await mount()
    const alert = dialog.getByRole('alert')
    await dialog.getByRole('button', { name: 'Add judge' }).click()
    await expect.element(alert).toHaveTextContent('Name: give the judge a name (its grades go under llm:<name>).')
    await expect.element(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect.element(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription(/^Name: give the judge a name/)

    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('gpt')
    await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill('gpt-4o-mini')
    await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill('3')
    await dialog.getByRole('button', { name: 'Add judge' }).click()
    await expect.element(alert).toHaveTextContent('Temperature: at most 2.')
    await expect.element(dialog.getByRole('spinbutton', { name: 'Temperature' })).toHaveAttribute('aria-invalid', 'true')
    await expect.element(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'false')

    await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill('0')
    await dialog.getByRole('spinbutton', { name: 'Concurrency' }).fill('2.5')
    await dialog.getByRole('button', { name: 'Add judge' }).click()
    await expect.element(alert).toHaveTextContent('Concurrency: a whole number.')

    await dialog.getByRole('spinbutton', { name: 'Concurrency' }).fill('4')
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOptions('Azure OpenAI')
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('https://mine.openai.azure.com')
    await dialog.getByRole('button', { name: 'Add judge' }).click()
    await expect.element(alert).toHaveTextContent(/^API version: is required for Azure OpenAI/)
    await expect.element(dialog.getByRole('textbox', { name: 'API version' })).toHaveAttribute('aria-invalid', 'true')
    expect(saves()).toEqual([])
  })

  it('edits a judge under its previous name', async () => {
    const { dialog } = await mount(DEMO_JUDGE)
    await expect.element(dialog.getByRole('textbox', { name: 'Model', exact: true })).toHaveValue('demo-judge')
    await expect.element(dialog.getByRole('spinbutton', { name: /^Depth/ })).toHaveValue(5)
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('demo2')
    await dialog.getByRole('spinbutton', { name: 'Few-shot examples' }).fill('3')
    await dialog.getByRole('button', { name: 'Save judge' }).click()
    await expect.poll(() => saves().length).toBe(1)
    expect(saves()[0]).toEqual({ previousName: 'demo', judge: { ...DEMO_JUDGE, name: 'demo2', fewShot: 3 } })
  })
})
