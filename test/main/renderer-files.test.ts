import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveRendererFile } from '../../src/main/host/renderer-files'
import { startHostRoute, type HostRoute } from '../fixtures/host-route'

/** The built renderer's files served over real HTTP, each with its type, and nothing outside the renderer's folder. */

describe('renderer files', () => {
  let root: string
  let server: HostRoute
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'qe-renderer-files-')))
    const rendererDir = join(root, 'renderer')
    mkdirSync(join(rendererDir, 'assets'), { recursive: true })
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    writeFileSync(join(rendererDir, 'assets', 'app 1.js'), 'console.log(1)')
    writeFileSync(join(rendererDir, 'assets', 'data.bin'), Buffer.from([0, 1, 2]))
    // A file beside the renderer's folder whose name starts like it: still outside.
    writeFileSync(join(root, 'renderer-secret.txt'), 'not served')
    writeFileSync(join(root, 'secret.txt'), 'not served')
    // The path as the browser host passes it: raw, dot segments and all.
    server = await startHostRoute((req, res) => serveRendererFile(res, rendererDir, (req.url ?? '/').split('?')[0]!))
  })
  afterAll(async () => {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  })

  it('serves the page at / and each file with its type and the security headers', async () => {
    const page = await server.send('/')
    expect([page.status, page.headers['content-type'], page.body.toString()]).toEqual([200, 'text/html; charset=utf-8', '<!doctype html><title>Query Explorer</title>'])
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    const script = await server.send('/assets/app%201.js')
    expect([script.status, script.headers['content-type'], script.body.toString()]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log(1)'])
    const other = await server.send('/assets/data.bin')
    expect([other.headers['content-type'], [...other.body]]).toEqual(['application/octet-stream', [0, 1, 2]])
  })

  it('serves nothing outside its folder, nor what is not there; a broken escape is a bad request', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e/renderer-secret.txt', '/../../etc/passwd', '/missing.js', '/assets']) {
      const answer = await server.send(path)
      expect([answer.status, answer.body.toString()], path).toEqual([404, 'Not found'])
    }
    expect((await server.send('/%E0%A4%A')).status).toBe(400)
  })
})
