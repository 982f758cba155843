import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOWNLOAD_PATH, DownloadTickets, contentDisposition, serveDownload } from '../../src/main/host/download-tickets'
import { startHostRoute, type HostRoute } from '../fixtures/host-route'

/**
 * One-time download addresses over a real HTTP route on 127.0.0.1: a file
 * served once as an attachment, then gone with its file; at most 50 kept;
 * every file not fetched deleted when the app stops.
 */

describe('download tickets', () => {
  let dir: string
  let server: HostRoute
  const tickets = new DownloadTickets()
  let files = 0
  /** The route's work for the last request: done once the file is served and deleted. */
  let served: Promise<void> = Promise.resolve()
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-download-tickets-'))
    server = await startHostRoute((req, res) => (served = serveDownload(req, res, tickets, (req.url ?? '').slice(DOWNLOAD_PATH.length))))
  })
  afterAll(async () => {
    await tickets.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const file = (text: string) => {
    const path = join(dir, `export-${files++}.csv`)
    writeFileSync(path, text)
    return path
  }

  it('serves a file once, as an attachment under its name, then forgets it and deletes the file', async () => {
    const path = file('rank,name\r\n1,São Paulo\r\n')
    const ticket = tickets.issue({ path, fileName: 'Big towns (São).csv', contentType: 'text/csv; charset=utf-8' })
    expect(ticket).toMatch(/^[\w-]{43}$/)
    const first = await server.send(`${DOWNLOAD_PATH}${ticket}`)
    expect(first.status).toBe(200)
    expect(first.body.toString()).toBe('rank,name\r\n1,São Paulo\r\n')
    expect(first.headers).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-length': String(Buffer.byteLength('rank,name\r\n1,São Paulo\r\n')),
      'content-disposition': `attachment; filename="Big towns _S_o_.csv"; filename*=UTF-8''Big%20towns%20%28S%C3%A3o%29.csv`,
      'cache-control': 'no-store',
    })
    expect(first.headers['content-security-policy']).toMatch(/; sandbox$/)
    await served
    expect(existsSync(path)).toBe(false)
    const second = await server.send(`${DOWNLOAD_PATH}${ticket}`)
    expect([second.status, second.body.toString()]).toEqual([404, 'This download was used already or has expired.'])
  })

  it('answers only a GET, and a ticket unknown or too long with 404, the ticket left unspent by a refused method', async () => {
    const ticket = tickets.issue({ path: file('x'), fileName: 'x.csv', contentType: 'text/csv' })
    expect((await server.send(`${DOWNLOAD_PATH}${ticket}`, { method: 'POST' })).status).toBe(405)
    expect((await server.send(`${DOWNLOAD_PATH}${'A'.repeat(43)}`)).status).toBe(404)
    expect((await server.send(`${DOWNLOAD_PATH}${'A'.repeat(101)}`)).status).toBe(404)
    expect((await server.send(`${DOWNLOAD_PATH}`)).status).toBe(404)
    expect((await server.send(`${DOWNLOAD_PATH}${ticket}`)).status).toBe(200)
  })

  it('keeps 50 at most: the 51st makes room by forgetting the oldest; close deletes every file not fetched', async () => {
    const own = new DownloadTickets()
    const paths = Array.from({ length: 51 }, (_, i) => file(`f${i}`))
    const issued = paths.map((path) => own.issue({ path, fileName: 'f.csv', contentType: 'text/csv' }))
    expect(own.size).toBe(50)
    expect(own.take(issued[0]!)).toBeNull()
    expect(own.take(issued[1]!)?.path).toBe(paths[1])
    await own.close()
    expect(own.size).toBe(0)
    expect(paths.slice(2).filter((path) => existsSync(path))).toEqual([])
  })

  it('names the file for any browser: an ASCII fallback, and the UTF-8 name', () => {
    expect(contentDisposition('results.csv')).toBe(`attachment; filename="results.csv"; filename*=UTF-8''results.csv`)
    expect(contentDisposition('../"evil"\r\n.csv')).toBe(`attachment; filename="_evil_.csv"; filename*=UTF-8''..%2F%22evil%22%0D%0A.csv`)
    expect(contentDisposition('東京')).toBe(`attachment; filename="_"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC`)
    expect(contentDisposition('...')).toBe(`attachment; filename="download"; filename*=UTF-8''...`)
  })
})
