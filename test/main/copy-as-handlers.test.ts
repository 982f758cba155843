import { describe, expect, it } from 'vitest'
import { copyAsHandlers, NOT_THE_DEMO } from '../../src/main/ipc/handlers/copy-as-handlers'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { curlText, SECRET_VARIABLE } from '../../src/shared/copy-as/copy-as'
import { failureOf } from '../fixtures/failure-of'
import { openRegistry, PROFILE } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/** "Copy as → curl, with the Demo's secret": only the built-in Demo's, and only this launch's. (Run in bash: copy-as-curl.test.ts.) */

const DEMO_SECRET = 'demo-secret-of-this-launch'
const request = search('paris', { count: 5 })

describe('copyAsHandlers', () => {
  const tempDir = useTempDirs('qe-copy-as')
  const demo = { ...PROFILE, id: 'demo', name: 'Demo', secrets: memorySecretStore('demo') }

  it("gives the Demo's curl with its secret filled in, the text curl-text writes for it", async () => {
    const { registry } = await openRegistry(tempDir(), [demo])
    const handlers = copyAsHandlers(registry, { connectionId: 'demo', secret: DEMO_SECRET })
    const { text } = await handlers['copy-as:demo-with-secret']({ connectionId: 'demo', request }, {})
    expect(text).toBe(curlText(registry.get('demo'), request, { secret: DEMO_SECRET }))
    expect(text).toContain(DEMO_SECRET)
  })

  it('refuses any other connection, and every connection when this launch has no Demo, before anything is read', async () => {
    const { registry } = await openRegistry(tempDir(), [demo])
    const saved = await registry.save(PROFILE)
    const withDemo = copyAsHandlers(registry, { connectionId: 'demo', secret: DEMO_SECRET })
    for (const [handlers, connectionId] of [
      [withDemo, saved.id],
      [withDemo, 'no-such-connection'],
      [copyAsHandlers(registry, null), 'demo'],
    ] as const) {
      const refused = await failureOf(handlers['copy-as:demo-with-secret']({ connectionId, request }, {}))
      expect([refused.code, refused.message]).toEqual(['validation', NOT_THE_DEMO])
    }
    expect(NOT_THE_DEMO).toContain(SECRET_VARIABLE)
  })
})
