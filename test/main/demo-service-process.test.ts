import { request as httpRequest } from 'node:http'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDemoService, type DemoService } from '../../src/main/demo/demo-service-process'
import { spawnGroup, stopGroup } from '../fixtures/process-group'

/**
 * The embedded demo service in a child process: it reports the facts of the
 * service it started, says why it could not start, and stops on the app's
 * terms: on close() mid-query, and when the app's process is killed.
 */

const reachable = async (service: { queryUrl: string }) =>
  fetch(`${service.queryUrl}/world/api/public/`).then(
    (response) => response.status === 200,
    () => false,
  )

/** A token from the service's auth host, for the account the service reports. */
async function tokenFor(service: DemoService): Promise<string> {
  const response = await fetch(`${service.authUrl}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: JSON.stringify({ WorkspaceName: service.workspace, ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

describe('the demo service process', () => {
  let service: DemoService
  beforeAll(async () => {
    service = await startDemoService()
  })
  afterAll(async () => service?.close())

  it('reports the facts of the service it started, and they work', async () => {
    expect(service).toMatchObject({ workspace: 'world', apis: ['places', 'public'], account: { clientId: 'demo' } })
    expect(service.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth$/)
    expect(service.queryUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/query$/)
    const headers = { Authorization: `Bearer ${await tokenFor(service)}` }
    expect((await fetch(`${service.queryUrl}/world/api/places/e/search/p/query/paris/count`, { headers })).status).toBe(200)
  })

  it('says clearly why it could not start: the port is taken', async () => {
    const port = Number(new URL(service.queryUrl).port)
    await expect(startDemoService({ service: { port } })).rejects.toThrow(/^The demo service could not start: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+$/)
  })

  it('stops on close(), even in the middle of a long query', async () => {
    const busy = await startDemoService()
    const headers = { Authorization: `Bearer ${await tokenFor(busy)}` }
    const url = `${busy.queryUrl}/world/api/places${'/e/sort/p/by/name/e/sort/p/by/latitude'.repeat(3)}/results`
    const { delivered, answer } = get(url, headers)
    await delivered
    await busy.close()
    expect(await answer).toBe('no answer')
    expect(await reachable(busy)).toBe(false)
    expect(alive(busy.pid!)).toBe(false)
    await busy.close()
  })

  it('ends when the process that started it is killed', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
    const module = pathToFileURL(resolve('src/main/demo/demo-service-process.ts')).href
    // The parent prints the query URL and the service's pid; it stays up until it is killed.
    const code = `import(${JSON.stringify(module)}).then(async (loaded) => {
      const demo = await (loaded.startDemoService ?? loaded.default.startDemoService)()
      process.stdout.write(JSON.stringify({ queryUrl: demo.queryUrl, pid: demo.pid }) + '\\n')
      setInterval(() => {}, 1000)
    })`
    // A group of its own, so that whatever happens, stopping the group leaves nothing behind.
    const parent = spawnGroup(process.execPath, ['--import', tsx, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = ''
        parent.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          if (out.includes('\n')) resolve(out.split('\n')[0]!)
        })
        parent.once('exit', (code) => reject(new Error(`the parent ended early (${code})`)))
      })
      const demo = JSON.parse(line) as { queryUrl: string; pid: number }
      expect(await reachable(demo)).toBe(true)
      const parentGone = new Promise((resolve) => parent.once('exit', resolve))
      parent.kill('SIGKILL')
      await parentGone
      // Nothing but the closed channel tells the service to go: wait until it has.
      await vi.waitFor(() => expect(alive(demo.pid)).toBe(false), { timeout: 60_000, interval: 50 })
      expect(await reachable(demo)).toBe(false)
    } finally {
      await stopGroup(parent, 'SIGKILL')
    }
  })
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A GET whose `delivered` resolves once the request is written to the server's socket; `answer` is its status or 'no answer'. */
function get(url: string, headers: Record<string, string>): { delivered: Promise<void>; answer: Promise<number | 'no answer'> } {
  let delivered!: () => void
  const written = new Promise<void>((resolve) => (delivered = resolve))
  const answer = new Promise<number | 'no answer'>((resolve) => {
    const request = httpRequest(url, { headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 'no answer'))
      response.on('error', () => resolve('no answer'))
    })
    request.on('finish', delivered)
    request.on('error', () => resolve('no answer'))
    request.end()
  })
  return { delivered: written, answer }
}
