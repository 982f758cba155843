import { describe, expect, it } from 'vitest'
import { baselineConfig, compareRequest, configPreset, connectionsPreset, otherConfig, runTarget, targetProblems, type ConnectionFacts } from '../../src/shared/compare/compare-targets'
import { RunTargetSchema } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'

const demo = { connectionId: 'demo', api: 'places', config: 'default', version: '' }
const connection = (id: string, workspace = 'world', api = 'places'): ConnectionFacts => ({ id, name: id, api, workspace, queryUrl: `http://${id}/query` })

describe('compare targets', () => {
  it('sends the configuration always, the API where it differs from the chain\'s, and a version only when one is named', () => {
    expect(runTarget(demo)).toEqual({ connectionId: 'demo', api: 'places', config: 'default' })
    expect(runTarget(demo, 'places')).toEqual({ connectionId: 'demo', config: 'default' })
    expect(runTarget({ ...demo, api: 'places-v2' }, 'places')).toEqual({ connectionId: 'demo', api: 'places-v2', config: 'default' })
    expect(runTarget({ ...demo, config: ' ', version: ' 2 ' })).toEqual({ connectionId: 'demo', api: 'places', config: 'default', version: '2' })
    expect(RunTargetSchema.safeParse(runTarget({ ...demo, config: 'production' })).success).toBe(true)
  })

  it('names the side and the field of what keeps a target from running', () => {
    const known = [connection('demo')]
    expect(targetProblems('A', demo, known)).toEqual([])
    expect(targetProblems('B', { ...demo, connectionId: 'gone', api: '', version: 'v2' }, known)).toEqual([
      'Choose a connection for B.',
      'Name the API for B.',
      "The version of B must be a number such as 2 or 1.1 (or empty for the connection's own).",
    ])
    expect(targetProblems('A', { ...demo, version: '1.1' }, known)).toEqual([])
  })

  it('"Config A vs config B": the baseline configuration against another the API describes', () => {
    expect(otherConfig(['default', 'production'], 'default')).toBe('production')
    expect(otherConfig(['default', 'production'], 'production')).toBe('default')
    expect(configPreset(demo, ['default', 'production'])).toEqual({ a: demo, b: { ...demo, config: 'production' } })
    // A is the baseline whatever the top bar shows: another view may have switched it (issue 32, defect 5).
    expect(configPreset({ ...demo, config: 'production' }, ['default', 'production'])).toEqual({ a: demo, b: { ...demo, config: 'production' } })
    expect(configPreset(demo, ['staging', 'production'])).toEqual({ a: { ...demo, config: 'staging' }, b: { ...demo, config: 'production' } })
    expect(configPreset(demo, ['default'])).toBeNull()
  })

  it('starts from the baseline: default where the API has it or describes none, else its first', () => {
    expect(baselineConfig(['production', 'default'])).toBe('default')
    expect(baselineConfig([])).toBe('default')
    expect(baselineConfig(['staging', 'production'])).toBe('staging')
  })

  it('"Same query on two connections": another connection, one to the same workspace and API first', () => {
    const connections = [connection('other', 'elsewhere'), connection('demo'), connection('staging')]
    expect(connectionsPreset(demo, connections)).toEqual({ a: demo, b: { ...demo, connectionId: 'staging' } })
    expect(connectionsPreset(demo, [connection('demo'), connection('other', 'elsewhere')])!.b.connectionId).toBe('other')
    // A connection pointing at another API runs the chain there.
    expect(connectionsPreset(demo, [connection('demo'), connection('open', 'world', 'public')])!.b).toEqual({ ...demo, connectionId: 'open', api: 'public' })
    expect(connectionsPreset(demo, [connection('demo')])).toBeNull()
  })

  it('runs the editor chain without the top bar configuration, the page, or the version unless it was pasted', () => {
    const request: QueryRequest = {
      workspace: 'world',
      api: 'places',
      version: '2',
      steps: [{ endpoint: 'search', parameters: { query: 'san' } }],
      responseType: 'results',
      options: { config: 'production', count: 25, offset: 50, level: 2 },
    }
    expect(compareRequest(request, false)).toEqual({ workspace: 'world', api: 'places', steps: request.steps, responseType: 'results', options: { level: 2 } })
    expect(compareRequest(request, true)).toMatchObject({ version: '2', options: { level: 2 } })
  })
})
