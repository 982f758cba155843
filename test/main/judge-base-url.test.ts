import { describe, expect, it } from 'vitest'
import { boundConnections, judgeBaseUrl } from '../../src/main/judges/judge-base-url'

/**
 * A judge's base URL moves with a file connection bound "moved" (the demo,
 * on a new port each launch), and only then: a judge elsewhere keeps its
 * address, so its key goes where it was saved for.
 */

const demoFile = { authUrl: 'http://127.0.0.1:8080/auth', queryUrl: 'http://127.0.0.1:8080/query' }
const demoApp = { authUrl: 'http://127.0.0.1:45123/auth', queryUrl: 'http://127.0.0.1:45123/query' }

describe('judgeBaseUrl', () => {
  it("takes the host and port of the app connection a file connection with the judge's origin was moved to", () => {
    expect(judgeBaseUrl('http://127.0.0.1:8080/v1', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('http://127.0.0.1:45123/v1')
    expect(judgeBaseUrl('http://127.0.0.1:8080/v1/', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('http://127.0.0.1:45123/v1/')
    expect(judgeBaseUrl('http://127.0.0.1:8080', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('http://127.0.0.1:45123')
  })

  it('leaves the base URL as written for another origin, a binding that is the same, or a connection moved to another path', () => {
    expect(judgeBaseUrl('https://api.openai.com/v1', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('https://api.openai.com/v1')
    expect(judgeBaseUrl('http://127.0.0.1:8080/v1', [{ file: demoFile, app: demoFile, how: 'same' }])).toBe('http://127.0.0.1:8080/v1')
    // Another path is another service, not a move: the key is not sent there.
    const elsewhere = { authUrl: 'http://127.0.0.1:9999/other/auth', queryUrl: 'http://127.0.0.1:9999/other/query' }
    expect(judgeBaseUrl('http://127.0.0.1:8080/v1', [{ file: demoFile, app: elsewhere, how: 'moved' }])).toBe('http://127.0.0.1:8080/v1')
    // A port alone is an origin: 127.0.0.1:8081 is not the demo's 8080.
    expect(judgeBaseUrl('http://127.0.0.1:8081/v1', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('http://127.0.0.1:8081/v1')
    expect(judgeBaseUrl('not a url', [{ file: demoFile, app: demoApp, how: 'moved' }])).toBe('not a url')
  })

  it("reads the session's bindings: a binding whose app connection is gone moves nothing", () => {
    const connections = [{ id: 'demo', ...demoFile }]
    const bindings = [{ fileConnectionId: 'demo', connectionId: 'app-demo', how: 'moved' as const }]
    const bound = boundConnections(connections, bindings, (id) => (id === 'app-demo' ? demoApp : null))
    expect(judgeBaseUrl('http://127.0.0.1:8080/v1', bound)).toBe('http://127.0.0.1:45123/v1')
    expect(boundConnections(connections, bindings, () => null)).toEqual([])
  })
})
