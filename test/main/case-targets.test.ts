import { describe, expect, it } from 'vitest'
import type { QueryTarget } from '../../src/main/http/query-runner'
import { caseTargets } from '../../src/main/test-cases/case-targets'
import { OWN_CONNECTIONS } from '../../src/shared/test-cases/target-text'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { refusal } from '../fixtures/failure-of'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'
import { openRegistry, PROFILE } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Where a run's cases go: a chosen target for all of them, or each case's own file connection as it is bound. */

const STAGING = { ...FILE_DEMO_CONNECTION, id: 'staging', name: 'Staging' }
const workspace = { ...emptyWorkspace(), connections: [FILE_DEMO_CONNECTION, STAGING] }

/** A target as the runner reads it (its account holds functions, so it is named by these). */
const keyOf = (target: QueryTarget | string) => (typeof target === 'string' ? target : [target.key, target.queryUrl])

describe('caseTargets', () => {
  const tempDir = useTempDirs('qe-case-targets')

  it('with a target, every case runs on that connection, with its API, config, version and workspace', async () => {
    const { registry } = await openRegistry(tempDir())
    const prod = await registry.save({ ...PROFILE, workspace: 'films' })
    const targets = caseTargets(registry, { workspace, boundTo: new Map() }, { connectionId: prod.id, api: 'movies', config: 'production' })
    expect(targets.text).toBe('Prod, API movies, config production')
    expect(targets.overrides).toEqual({ api: 'movies', config: 'production', version: undefined, workspace: 'films' })
    expect(keyOf(targets.targetOf({ connection: null }))).toEqual([prod.id, PROFILE.queryUrl])
    expect(keyOf(targets.targetOf({ connection: 'staging' }))).toEqual([prod.id, PROFILE.queryUrl])
  })

  it('an unknown target connection is refused at once', async () => {
    const { registry } = await openRegistry(tempDir())
    expect(refusal(() => caseTargets(registry, { workspace, boundTo: new Map() }, { connectionId: 'gone' })).code).toBe('not_found')
  })

  it("without one, each case runs where its file connection is bound, or says what to connect", async () => {
    const { registry } = await openRegistry(tempDir())
    const prod = await registry.save(PROFILE)
    const boundTo = new Map([
      ['demo', prod.id],
      ['staging', null],
    ])
    const targets = caseTargets(registry, { workspace, boundTo }, undefined)
    expect([targets.text, targets.overrides]).toEqual([OWN_CONNECTIONS, {}])
    expect(keyOf(targets.targetOf({ connection: 'demo' }))).toEqual([prod.id, PROFILE.queryUrl])
    expect(targets.targetOf({ connection: 'staging' })).toBe(
      'The workspace\'s connection "Staging" is not connected: connect it to one of the app\'s connections (create it or choose one) to run this case, or run the tests on a chosen connection.',
    )
    expect(targets.targetOf({ connection: null })).toBe('The case names no connection of the workspace to run on.')
    expect(targets.targetOf({ connection: 'nowhere' })).toBe('The case names no connection of the workspace to run on.')

    // Bound to a connection since deleted: the registry's own words.
    await registry.delete(prod.id)
    expect(targets.targetOf({ connection: 'demo' })).toBe(`There is no connection with id "${prod.id}".`)
  })
})
