import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { TestCase } from '../../src/shared/test-cases/test-case'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Editing a test case: its expectations as JSON, each problem named with its
 * field and rule as the user types (and nothing sent while there is one), a
 * name left empty named too, Save sending the name and expectations read
 * (nothing when nothing changed), and main's refusal shown in the dialog.
 */

const fake = bridgeForFile()

const CASE: TestCase = { name: 'San answers', query: 'San', expect: { status: 200, totalAtLeast: 100 } }
const EMPTY: WorkspaceView = { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [CASE], sets: [], bindings: [] }

async function mount() {
  const pinia = demoWindow(fake, { 'tests:edit': EMPTY })
  const [{ default: ExpectationsEditor }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/tests/ExpectationsEditor.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(EMPTY)
  const outcomes: (string | null)[] = []
  const screen = await render(ExpectationsEditor, {
    props: { testCase: CASE, onDone: (name: string) => outcomes.push(name), onCancel: () => outcomes.push(null) },
    global: { plugins: [pinia] },
  })
  return { dialog: screen.getByRole('dialog', { name: 'Edit test “San answers”' }), outcomes }
}

const edits = () => fake.calls.filter((call) => call.channel === 'tests:edit').map((call) => call.request)

describe('ExpectationsEditor', () => {
  it('names each problem with its field and rule as the user types, and sends nothing while there is one', async () => {
    const { dialog, outcomes } = await mount()
    const json = dialog.getByRole('textbox', { name: 'Expectations (JSON)' })
    expect(JSON.parse((json.element() as HTMLTextAreaElement).value)).toEqual({ status: 200, totalAtLeast: 100 })

    await json.fill('{ "totalAtLeast": -1 }')
    await expect.element(json).toHaveAttribute('aria-invalid', 'true')
    const problems = dialog.getByRole('list', { name: 'Problems' })
    await expect.element(problems).toHaveTextContent('totalAtLeast: must be at least 0')
    await json.fill('{ "status": 200,')
    // Cut short, the text is not JSON yet: one problem, saying so and where.
    await expect.poll(() => problems.getByRole('listitem').elements().map((item) => item.textContent)).toEqual([expect.stringMatching(/^\(json\): not valid JSON: .*\(line 1 column 17\)$/)])
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.element(json).toHaveFocus()

    await json.fill('{ "status": 200 }')
    await dialog.getByRole('textbox', { name: 'Name' }).fill('   ')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.element(dialog.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Name: give the test a name.')
    expect(edits()).toEqual([])
    expect(outcomes).toEqual([])
  })

  it('sends the new name and the expectations read, and shows what main refuses', async () => {
    const { dialog, outcomes } = await mount()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('San answers many')
    await dialog.getByRole('textbox', { name: 'Expectations (JSON)' }).fill('{ "totalAtLeast": 500 }')
    fake.hold('tests:edit')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    expect(fake.held[0]!.request).toEqual({ name: 'San answers', expect: { totalAtLeast: 500 }, newName: 'San answers many' })
    fake.held[0]!.refuse({ code: 'validation', message: 'A test named "San answers many" exists already.' })
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('A test named "San answers many" exists already.')
    expect(outcomes).toEqual([])
  })

  it('closes without sending anything when nothing changed', async () => {
    const { dialog, outcomes } = await mount()
    await dialog.getByRole('button', { name: 'Save' }).click()
    expect(outcomes).toEqual([null])
    expect(edits()).toEqual([])
  })
})
