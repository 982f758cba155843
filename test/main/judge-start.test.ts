import { describe, expect, it } from 'vitest'
import { judgeBaseUrlHere } from '../../src/main/judges/judge-start'
import type { WorkspaceBinding } from '../../src/shared/ipc/contract'
import { JudgeSchema } from '../../src/shared/relevance/llm-judge'
import { openRegistry } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Where a judge's calls go in the app: the example file's demo judge follows the demo connection to this launch's port. */

const fileDemo = { id: 'demo', name: 'Demo', authUrl: 'http://127.0.0.1:8080/auth', queryUrl: 'http://127.0.0.1:8080/query', workspace: 'world', api: 'places', config: 'default', clientId: 'demo' }
const demoJudge = JudgeSchema.parse({ name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge' })

describe('judgeBaseUrlHere', () => {
  const tempDir = useTempDirs('qe-judge-start')

  it('moves the judge with a file connection of its origin bound "moved", and leaves any other judge where it is', async () => {
    const { registry } = await openRegistry(tempDir())
    const app = await registry.save({ name: 'Demo here', authUrl: 'http://127.0.0.1:43117/auth', queryUrl: 'http://127.0.0.1:43117/query', workspace: 'world', api: 'places', clientId: 'demo' })
    const moved: WorkspaceBinding[] = [{ fileConnectionId: 'demo', connection: fileDemo, connectionId: app.id, how: 'moved' }]
    expect(judgeBaseUrlHere(registry, moved, demoJudge)).toBe('http://127.0.0.1:43117/v1')
    // Bound as it is (same), chosen by hand, or not bound: the base URL as written.
    for (const how of ['same', 'chosen', null] as const) {
      expect(judgeBaseUrlHere(registry, [{ ...moved[0]!, how }], demoJudge)).toBe('http://127.0.0.1:8080/v1')
    }
    const openai = JudgeSchema.parse({ name: 'gpt', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o' })
    expect(judgeBaseUrlHere(registry, moved, openai)).toBe('https://api.openai.com/v1')
    // A binding whose app connection is gone moves nothing.
    await registry.delete(app.id)
    expect(judgeBaseUrlHere(registry, moved, demoJudge)).toBe('http://127.0.0.1:8080/v1')
  })
})
