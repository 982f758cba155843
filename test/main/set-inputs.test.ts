import { describe, expect, it } from 'vitest'
import { setRunInputs, setTarget } from '../../src/main/evaluation/set-inputs'
import type { TestContext } from '../../src/main/workspaces/workspace-session'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { refusal } from '../fixtures/failure-of'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'
import { openRegistry, PROFILE } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/** What an evaluation or experiment starts from: the set, its template, the metrics, and where it runs; each refusal a sentence. */

const TEMPLATE = { name: 'Template', connection: 'demo', notes: '', request: search('{{query}}', { count: 10, config: 'production' }) }
const PLAIN = { name: 'Plain', connection: 'demo', notes: '', request: search('paris') }
const workspace = {
  ...emptyWorkspace(),
  connections: [FILE_DEMO_CONNECTION],
  queries: [TEMPLATE, PLAIN],
  sets: [
    { name: 'Cities', query: 'Template', queries: [{ id: 'q1', text: 'paris' }], judgments: [] },
    { name: 'Empty', query: 'Template', queries: [], judgments: [] },
    { name: 'Fixed', query: 'Plain', queries: [{ id: 'q1', text: 'paris' }], judgments: [] },
    { name: 'Orphan', query: 'Gone', queries: [{ id: 'q1', text: 'paris' }], judgments: [] },
  ],
}
const context = (boundTo: [string, string | null][] = []): TestContext => ({ workspace, boundTo: new Map(boundTo) })

describe('setRunInputs', () => {
  it('finds the set, its template and its file connection; the default metrics unless some are named', () => {
    const inputs = setRunInputs(context(), 'Cities', undefined)
    expect(inputs).toEqual({ set: workspace.sets[0], template: TEMPLATE.request, templateConnection: 'demo', metrics: DEFAULT_METRICS })
    expect(setRunInputs(context(), 'Cities', 'p@5, rr').metrics).toEqual([
      { name: 'p', k: 5 },
      { name: 'rr', k: null },
    ])
  })

  it('refuses, in a sentence, a set that is missing, empty, or whose template is gone or holds no placeholder, and bad metrics', () => {
    expect(refusal(() => setRunInputs(context(), 'Nope', undefined))).toMatchObject({ code: 'not_found', message: 'There is no query set named "Nope" in this workspace.' })
    expect(refusal(() => setRunInputs(context(), 'Empty', undefined))).toMatchObject({ code: 'validation', message: 'The query set "Empty" has no queries to evaluate: add some first.' })
    expect(refusal(() => setRunInputs(context(), 'Orphan', undefined)).message).toBe('The set\'s template, the saved query "Gone", is not in the workspace.')
    expect(refusal(() => setRunInputs(context(), 'Fixed', undefined)).message).toMatch(/^The set's template holds no \{\{query\}\}/)
    const metrics = refusal(() => setRunInputs(context(), 'Cities', 'p@x'))
    expect(metrics.code).toBe('validation')
    expect(metrics.message).toMatch(/^metrics: /)
  })
})

describe('setTarget', () => {
  const tempDir = useTempDirs('qe-set-inputs')

  it('runs on the connection the template is bound to, labelled with the template\'s configuration', async () => {
    const { registry } = await openRegistry(tempDir())
    const prod = await registry.save(PROFILE)
    const inputs = setRunInputs(context(), 'Cities', undefined)
    const target = setTarget(registry, context([['demo', prod.id]]), inputs)
    expect([target.target.key, target.overrides, target.label]).toEqual([prod.id, {}, 'Prod, config production'])
  })

  it('a chosen target names its API when it is not the connection\'s own; an unbound template says "this set"', async () => {
    const { registry } = await openRegistry(tempDir())
    const other = await registry.save({ ...PROFILE, name: 'Other', api: 'movies' })
    const inputs = setRunInputs(context(), 'Cities', undefined)
    const chosen = setTarget(registry, context(), inputs, { connectionId: other.id, config: 'staging', version: '2' })
    expect([chosen.target.key, chosen.label]).toEqual([other.id, 'Other, API places, config staging, version 2'])

    const unbound = refusal(() => setTarget(registry, context([['demo', null]]), inputs))
    expect(unbound.code).toBe('validation')
    expect(unbound.message).toMatch(/to run this set, or run the tests on a chosen connection\.$/)
  })
})
