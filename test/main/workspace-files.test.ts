import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { documentFor, MAX_WORKSPACE_BYTES, readWorkspaceFile, writeWorkspaceFile } from '../../src/main/workspaces/workspace-files'
import { startService } from '../../src/service'
import { buildUrl } from '../../src/shared/query/url'
import { layoutOf, parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { bigWorkspace } from '../fixtures/big-workspace'

const sample: Workspace = {
  format: 'query-explorer-workspace',
  version: 1,
  connections: [
    {
      id: 'demo',
      name: 'Demo',
      authUrl: 'http://127.0.0.1:8080/auth',
      queryUrl: 'http://127.0.0.1:8080/query',
      workspace: 'world',
      api: 'places',
      clientId: 'demo',
    },
  ],
  queries: [
    {
      name: 'Paris',
      connection: 'demo',
      notes: '',
      request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType: 'results', options: {} },
    },
  ],
}

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'qe-workspace-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('workspace files on disk', () => {
  it('writes atomically and leaves no temporary file behind', async () => {
    const path = join(dir, 'team.qxw.json')
    writeFileSync(path, 'the previous version')
    await writeWorkspaceFile(path, sample)
    expect(readdirSync(dir)).toEqual(['team.qxw.json'])
    expect(readFileSync(path, 'utf8')).toBe(serializeWorkspace(sample))
    const back = await readWorkspaceFile(path)
    expect(back).toEqual({ ok: true, workspace: sample, bytes: Buffer.byteLength(serializeWorkspace(sample)) })
  })

  it('saving twice without edits gives identical bytes', async () => {
    const path = join(dir, 'team.qxw.json')
    await writeWorkspaceFile(path, sample)
    const first = readFileSync(path)
    const read = await readWorkspaceFile(path)
    if (!read.ok) throw new Error(read.message)
    await writeWorkspaceFile(path, read.workspace)
    expect(readFileSync(path).equals(first)).toBe(true)
  })

  it('leaves a corrupt file byte-for-byte untouched and writes nothing', async () => {
    const path = join(dir, 'broken.qxw.json')
    const corrupt = Buffer.from('{"format": "query-explorer-workspace", "version": 1, "queries": [\u0000')
    writeFileSync(path, corrupt)
    const result = await readWorkspaceFile(path)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message).toMatch(/^"broken\.qxw\.json" is not valid JSON: /)
    expect(readFileSync(path).equals(corrupt)).toBe(true)
    expect(readdirSync(dir)).toEqual(['broken.qxw.json'])
  })

  it('a workspace that cannot be serialized leaves the previous file as it was', async () => {
    const path = join(dir, 'team.qxw.json')
    await writeWorkspaceFile(path, sample)
    const before = readFileSync(path)
    const leaky = { ...sample, auth: { clientSecret: 'canary-s3cret' } } as Workspace
    await expect(writeWorkspaceFile(path, leaky)).rejects.toThrow(/looks like a secret/)
    expect(readFileSync(path).equals(before)).toBe(true)
    expect(readdirSync(dir)).toEqual(['team.qxw.json'])
  })

  it('refuses a file over the size limit with a clear message', async () => {
    const path = join(dir, 'huge.qxw.json')
    const padding = ' '.repeat(MAX_WORKSPACE_BYTES)
    writeFileSync(path, serializeWorkspace(sample) + padding)
    const result = await readWorkspaceFile(path)
    expect(result).toEqual({
      ok: false,
      message: '"huge.qxw.json" is too large to be a workspace file (32.0 MiB; the most is 32.0 MiB).',
    })
    // Exactly at the limit it is read; one byte over, it is not.
    const small = join(dir, 'small.qxw.json')
    writeFileSync(small, serializeWorkspace(sample) + ' '.repeat(100))
    expect((await readWorkspaceFile(small, Buffer.byteLength(serializeWorkspace(sample)) + 100)).ok).toBe(true)
    expect((await readWorkspaceFile(small, Buffer.byteLength(serializeWorkspace(sample)) + 99)).ok).toBe(false)
  })

  it('keeps the mode of the file it replaces; a new file gets 0666 less the umask, not 0600', async () => {
    const path = join(dir, 'team.qxw.json')
    writeFileSync(path, 'the previous version')
    for (const mode of [0o644, 0o640, 0o600]) {
      chmodSync(path, mode)
      await writeWorkspaceFile(path, sample)
      expect(statSync(path).mode & 0o777).toBe(mode)
    }
    const fresh = join(dir, 'fresh.qxw.json')
    await writeWorkspaceFile(fresh, sample)
    expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~process.umask())
  })

  it('a save with no change is never larger than the file read: the examples as they are, a compact file compact', async () => {
    const examples = join(__dirname, '../../examples')
    for (const name of ['world.qxw.json', 'big-spanish-cities.qxw.json']) {
      const text = readFileSync(join(examples, name), 'utf8')
      const read = parseWorkspace(text, name)
      if (!read.ok) throw new Error(read.message)
      expect(documentFor(read.workspace, Buffer.byteLength(text)), name).toBe(text)
    }
    // 200,000 judgments written by a tool that writes JSON on one line: the readable form would be 1.8 MiB more.
    const compact = JSON.stringify(bigWorkspace())
    const read = parseWorkspace(compact, 'compact.qxw.json')
    if (!read.ok) throw new Error(read.message)
    const document = documentFor(read.workspace, Buffer.byteLength(compact))
    expect(layoutOf(document)).toBe('compact')
    expect(Buffer.byteLength(document)).toBeLessThanOrEqual(Buffer.byteLength(compact))
    const back = parseWorkspace(document, 'compact.qxw.json')
    expect(back.ok && back.workspace).toEqual(read.workspace)
    // The same content read in the app's form stays in it, byte for byte.
    const readable = serializeWorkspace(read.workspace)
    expect(documentFor(read.workspace, Buffer.byteLength(readable))).toBe(readable)
  })

  it('says so when the file is missing, a folder, or not UTF-8', async () => {
    expect(await readWorkspaceFile(join(dir, 'gone.qxw.json'))).toEqual({ ok: false, message: '"gone.qxw.json" was not found.' })
    mkdirSync(join(dir, 'folder.qxw.json'))
    const folder = await readWorkspaceFile(join(dir, 'folder.qxw.json'))
    expect(folder.ok).toBe(false)
    if (!folder.ok) expect(folder.message).toMatch(/^"folder\.qxw\.json" is (not a file|a folder)/)
    writeFileSync(join(dir, 'latin1.qxw.json'), Buffer.from([0x7b, 0xe9, 0x7d]))
    expect(await readWorkspaceFile(join(dir, 'latin1.qxw.json'))).toEqual({
      ok: false,
      message: '"latin1.qxw.json" is not UTF-8 text, so it is not a workspace file.',
    })
  })
})

describe('examples/big-spanish-cities.qxw.json', () => {
  it('reads from disk and, run on the demo service, gives Spanish cities of at least 100,000 people', async () => {
    const read = await readWorkspaceFile(join(__dirname, '../../examples/big-spanish-cities.qxw.json'))
    if (!read.ok) throw new Error(read.message)
    const service = await startService({ port: 0, log: () => undefined })
    try {
      const auth = await fetch(`${service.authUrl}/api/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json-patch+json' },
        body: JSON.stringify({ WorkspaceName: service.workspace, ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false }),
      })
      const { access_token: token } = (await auth.json()) as { access_token: string }
      // The file's URLs stand for the demo on whatever port it has: run it on this one.
      const response = await fetch(buildUrl(service.queryUrl, read.workspace.queries[0]!.request), { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(200)
      const body = (await response.json()) as { items: { tuple: { attributes: { country: string; population: number } }[] }[] }
      expect(body.items.length).toBeGreaterThan(0)
      for (const item of body.items) {
        expect(item.tuple[0]!.attributes.country).toBe('ES')
        expect(item.tuple[0]!.attributes.population).toBeGreaterThanOrEqual(100_000)
      }
    } finally {
      await service.close()
    }
  })
})
