import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { createAppCore, type AppCore, type AppCoreOptions } from '../../src/main/app/app-core'
import { openSecretStore } from '../../src/main/credentials/open-secret-store'
import type { QueryRequest } from '../../src/shared/query/model'
import { UPLOAD_PART_BYTES, type UploadKind } from '../../src/shared/ipc/uploads'
import { DOWNLOAD_PATH } from '../../src/main/host/download-tickets'

/** Shared by the main-process tests: the real keychain, a core, and small real HTTP servers that misbehave on purpose. */

export const KEYCHAIN_SERVICE = `query-explorer-test-${process.pid}`

/**
 * The app gives a keychain 3 s to answer its first call and 10 s for later
 * ones; a keyring daemon just started on a machine whose cores are busy may
 * take longer, and that is not what these tests are about.
 */
export const PATIENT_KEYCHAIN = { probeMs: 60_000, callMs: 60_000 }

/** Null when an OS keychain answers; else why not (the keychain tests are skipped, and fail in CI). */
export async function keychainMissing(): Promise<string | null> {
  const keychain = await openSecretStore(KEYCHAIN_SERVICE, undefined, PATIENT_KEYCHAIN)
  const missing = keychain.kind !== 'os' ? `no OS keychain answered (${keychain.detail})` : null
  if (missing && process.env.CI) throw new Error(`CI needs an OS keychain: ${missing}`)
  return missing
}

function readKeychain(account: string): Promise<string | null> {
  const keytar = createRequire(__filename)('keytar') as { getPassword(service: string, account: string): Promise<string | null> }
  return keytar.getPassword(KEYCHAIN_SERVICE, account)
}

/** The client secret the app keeps in the real keychain for a connection (stored with the auth origin it is bound to). */
export async function storedSecret(connectionId: string): Promise<{ origin: string; secret: string } | null> {
  const stored = await readKeychain(`secret:${connectionId}`)
  if (stored === null) return null
  const { origin, secret } = JSON.parse(stored) as { origin: string; secret: string }
  return { origin, secret }
}

/** The token the app cached in the real keychain for a connection, if any. */
export async function storedToken(connectionId: string): Promise<string | null> {
  const stored = await readKeychain(`token:${connectionId}`)
  return stored === null ? null : (JSON.parse(stored) as { token: string }).token
}

export type Reply = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string; status?: number; retryAfterSeconds?: number } }

export async function openCore(dataDir: string, options: Partial<AppCoreOptions> = {}): Promise<AppCore> {
  return createAppCore({ dataDir, host: 'browser', version: 'test', keychainService: KEYCHAIN_SERVICE, demo: 'none', keychainTimeouts: PATIENT_KEYCHAIN, ...options })
}

/**
 * What the browser-host page does with a file the user picked: sends it to
 * the core's uploads in parts (as the upload route takes them), as a
 * workspace file unless told; the ticket is what `workspace:import` (or
 * `sets:import`) names. Only a browser-host core has uploads.
 */
export async function uploadText(core: AppCore, fileName: string, text: string | Buffer, kind: UploadKind = 'workspace'): Promise<string> {
  if (!core.uploads) throw new Error('uploadText: only a browser-host core takes uploads')
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text
  const ticket = await core.uploads.open('test page', fileName, bytes.length, kind)
  for (let offset = 0; offset < bytes.length; offset += UPLOAD_PART_BYTES) {
    await core.uploads.append('test page', ticket, offset, bytes.subarray(offset, offset + UPLOAD_PART_BYTES))
  }
  return ticket
}

/** The file a one-time download address main gave (`/downloads/<ticket>`) hands over, taken as the host would serve it: once. */
export function downloadedFile(core: AppCore, downloadUrl: string | null | undefined): { fileName: string; text: string } {
  if (!downloadUrl?.startsWith(DOWNLOAD_PATH) || !core.downloads) throw new Error(`no download address: ${String(downloadUrl)}`)
  const file = core.downloads.take(downloadUrl.slice(DOWNLOAD_PATH.length))
  if (!file) throw new Error('the download ticket was not known')
  return { fileName: file.fileName, text: readFileSync(file.path, 'utf8') }
}

export async function call<T = never>(core: AppCore, channel: string, request: unknown): Promise<T> {
  const result = await core.dispatch(channel, request)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`)
  return result.data as T
}

/**
 * Asks for a background run's status (a test run, an evaluation, an
 * experiment) until it is no longer running: no time limit of its own, the
 * test's timeout is the bound.
 */
export async function untilEnded<T extends { state: string }>(read: () => Promise<T>): Promise<T> {
  for (;;) {
    const status = await read()
    if (status.state !== 'running') return status
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export async function failure(core: AppCore, channel: string, request: unknown): Promise<{ code: string; message: string; status?: number; retryAfterSeconds?: number }> {
  const result = await core.dispatch(channel, request)
  if (result.ok) throw new Error(`${channel} succeeded, a failure was expected`)
  return result.error
}

export const search = (text: string, options: QueryRequest['options'] = { count: 10 }, api = 'places'): QueryRequest => ({
  workspace: 'world',
  api,
  steps: [{ endpoint: 'search', parameters: { query: text } }],
  responseType: 'results',
  options,
})

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** What a misbehaving server saw of one request. */
export interface SeenRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export interface TestServer {
  origin: string
  seen: SeenRequest[]
  close(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 whose answers the test writes. */
export async function startServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const seen: SeenRequest[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handle(req, res, body)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export { closedPort } from '../fixtures/ports'

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export const RESULTS_PAGE = {
  offset: 0,
  count: 10,
  type: ['OBJ'],
  items: [{ rank: 1, probability: 1, tuple: [{ id: 'x', class: ['City'], attributes: { name: 'X' } }] }],
}
