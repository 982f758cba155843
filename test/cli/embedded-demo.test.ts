import { afterAll, describe, expect, it } from 'vitest'
import { isDemoConnection, startEmbeddedDemo, usesDemo, type StartedDemo } from '../../src/cli/embedded-demo'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'

/**
 * Which file connection stands for the app's Demo (its URLs name whichever
 * port the demo has), when a run goes to the embedded demo, and the demo
 * started in this process with the connection pointed at it.
 */

/** The Demo as a workspace file names it (examples/world.qxw.json): on port 8080, whichever port the demo has. */
const DEMO = FILE_DEMO_CONNECTION

describe('isDemoConnection', () => {
  it('is the demo client of the world workspace on a loopback http URL, any port', () => {
    expect(isDemoConnection(DEMO)).toBe(true)
    expect(isDemoConnection({ ...DEMO, authUrl: 'http://localhost/auth', queryUrl: 'http://localhost:41234/query' })).toBe(true)
  })

  it('is not another client, another workspace, https, or a host that is not loopback', () => {
    expect(isDemoConnection({ ...DEMO, clientId: 'ci-runner' })).toBe(false)
    expect(isDemoConnection({ ...DEMO, workspace: 'sandbox' })).toBe(false)
    expect(isDemoConnection({ ...DEMO, queryUrl: 'https://127.0.0.1:8080/query' })).toBe(false)
    expect(isDemoConnection({ ...DEMO, authUrl: 'http://demo.example.com/auth' })).toBe(false)
    // A host that only starts like a loopback address is another host.
    expect(isDemoConnection({ ...DEMO, queryUrl: 'http://127.0.0.1.example.com/query' })).toBe(false)
  })
})

describe('usesDemo', () => {
  it("goes to the demo for the app's Demo unless a URL is overridden; --demo decides either way", () => {
    expect(usesDemo(DEMO)).toBe(true)
    expect(usesDemo(DEMO, { authUrl: 'https://auth.example.com/auth' })).toBe(false)
    expect(usesDemo(DEMO, { queryUrl: 'https://q.example.com/query' })).toBe(false)
    expect(usesDemo({ ...DEMO, clientId: 'ci-runner' })).toBe(false)
    expect(usesDemo({ ...DEMO, clientId: 'ci-runner' }, { demo: true })).toBe(true)
    expect(usesDemo(DEMO, { demo: true, queryUrl: 'https://q.example.com/query' })).toBe(true)
  })
})

describe('startEmbeddedDemo', () => {
  const started: StartedDemo[] = []
  afterAll(async () => {
    for (const demo of started) await demo.service.close()
  })

  it('starts the demo on a free loopback port and points the connection at it, keeping its other fields', async () => {
    const demo = await startEmbeddedDemo({ ...DEMO, name: 'My demo', config: 'production' })
    started.push(demo)
    expect(demo.connection).toEqual({ ...DEMO, name: 'My demo', config: 'production', authUrl: demo.service.authUrl, queryUrl: demo.service.queryUrl })
    expect(demo.connection.queryUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/query$/)
    expect(demo.connection.queryUrl).not.toBe(DEMO.queryUrl)
    // A secret made for this start, and it earns a token.
    expect(demo.secret).toBe(demo.service.account.clientSecret)
    expect(demo.secret.length).toBeGreaterThanOrEqual(24)
    const reply = await fetch(`${demo.connection.authUrl}/api/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: demo.secret, ForceReauth: false }),
    })
    expect(reply.status).toBe(200)
  })

  it('takes the secret it is given (the one printed code reads) as the demo account’s', async () => {
    const demo = await startEmbeddedDemo(DEMO, 'printed-code-secret')
    started.push(demo)
    expect(demo.secret).toBe('printed-code-secret')
    expect(demo.service.account).toEqual({ clientId: 'demo', clientSecret: 'printed-code-secret' })
  })
})
