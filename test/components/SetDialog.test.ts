import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The New / Edit query set dialog: it offers the saved queries that hold
 * {{query}} as templates, counts the queries typed (blank and repeated lines
 * left out), names a slip with its field and rule before sending anything,
 * sends a set whose scale is the default without one, keeps a query's id
 * when a set is edited, and shows what main refuses, staying open.
 */

const fake = bridgeForFile()

const search = (query: string): QueryRequest => ({ workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query } }], responseType: 'results', options: { count: 10 } })

const EXISTING: QuerySet = { name: 'World cities', query: 'City search', queries: [{ id: 'q7', text: 'paris' }], judgments: [] }

function view(): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: [setSummary(EXISTING)],
    queries: [
      { name: 'City search', connection: 'demo', notes: '', request: search('{{query}}') },
      { name: 'San', connection: 'demo', notes: '', request: search('san') },
    ],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  }
}

async function mount(editing: QuerySet | null) {
  const pinia = demoWindow(fake, {
    'sets:get': EXISTING,
    'eval:list': [],
    'sets:save': view(),
  })
  const [{ default: SetDialog }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/SetDialog.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
  ])
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view())
  const outcomes: string[] = []
  const screen = await render(SetDialog, {
    props: { editing, onDone: () => outcomes.push('done'), onCancel: () => outcomes.push('cancel') },
    global: { plugins: [pinia] },
  })
  const dialog = screen.getByRole('dialog', { name: editing ? 'Edit query set' : 'New query set' })
  return { dialog, outcomes }
}

const saves = () => fake.calls.filter((call) => call.channel === 'sets:save').map((call) => call.request)

describe('SetDialog', () => {
  it('names a slip with its field and rule, then adds the set with the queries typed', async () => {
    const { dialog, outcomes } = await mount(null)
    const template = dialog.getByRole('combobox', { name: 'Template' })
    // Only a saved query that holds {{query}} is a template; the editor's, empty, holds none yet.
    expect(template.getByRole('option').elements().map((option) => option.textContent)).toEqual(['City search', "The editor's query (holds no {{query}} yet)"])
    await expect.element(template).toHaveDisplayValue('City search')

    const add = dialog.getByRole('button', { name: 'Add set' })
    await add.click()
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Name: give the query set a name.')
    await dialog.getByRole('textbox', { name: 'Set name' }).fill('  Capitals ')
    await dialog.getByRole('textbox', { name: /^Queries, one a line/ }).fill('lima\n\n  quito \nlima\n')
    await expect.element(dialog.getByText('Queries, one a line (2)')).toBeVisible()

    await dialog.getByRole('textbox', { name: 'Scale' }).fill('0 Bad, Good')
    await add.click()
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Scale: "Good" is not a grade and its words, such as "2 Good".')
    await dialog.getByRole('textbox', { name: 'Scale' }).fill('0 Bad, 1 Good')
    await dialog.getByRole('spinbutton', { name: 'Relevant from grade' }).fill('2')
    await add.click()
    await expect.element(dialog.getByRole('alert')).toHaveTextContent("Relevant from grade: a whole number from 0 to 1, the scale's highest grade.")
    expect(saves()).toEqual([])

    await dialog.getByRole('spinbutton', { name: 'Relevant from grade' }).fill('1')
    await dialog.getByRole('combobox', { name: 'Gain' }).selectOptions('linear')
    await add.click()
    await expect.poll(() => outcomes).toEqual(['done'])
    expect(saves()).toEqual([{
      set: {
        name: 'Capitals', template: { kind: 'saved', query: 'City search' },
        scale: [{ grade: 0, label: 'Bad' }, { grade: 1, label: 'Good' }],
        settings: { gain: 'linear', unjudged: 'zero', threshold: 1, aggregate: 'mean' },
        queries: [{ id: 'q1', text: 'lima' }, { id: 'q2', text: 'quito' }],
      },
    }])
  })

  it("edits a set keeping its queries' ids and leaving a default scale out; what main refuses shows and the dialog stays", async () => {
    const { dialog, outcomes } = await mount(EXISTING)
    await expect.element(dialog.getByRole('textbox', { name: 'Set name' })).toHaveValue('World cities')
    await expect.element(dialog.getByRole('textbox', { name: 'Scale' })).toHaveValue('0 Poor, 1 Fair, 2 Good, 3 Perfect')
    await dialog.getByRole('textbox', { name: /^Queries, one a line/ }).fill('rome\nparis')
    fake.hold('sets:save')
    await dialog.getByRole('button', { name: 'Save set' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    expect(fake.held[0]!.request).toEqual({
      previousName: 'World cities',
      set: { name: 'World cities', template: { kind: 'saved', query: 'City search' }, settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' }, queries: [{ id: 'q1', text: 'rome' }, { id: 'q7', text: 'paris' }] },
    })
    fake.held[0]!.refuse({ code: 'validation', message: 'A query set named "World cities" is open elsewhere.' })
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('A query set named "World cities" is open elsewhere.')
    expect(outcomes).toEqual([])

    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(outcomes).toEqual(['cancel'])
  })
})
