import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { QueryReply } from '../../src/shared/ipc/contract'
import { fillTemplate, holdsPlaceholder } from '../../src/shared/relevance/set-template'
import { parseWorkspace, serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { call, openCore } from './support'

/**
 * The sample workspaces in examples/ are what a new user opens first: each
 * must be in the exact form the app writes (so opening and saving it changes
 * nothing in git), and each of its queries must run on the embedded demo.
 */

const EXAMPLES = join(__dirname, '../../examples')
const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.qxw.json'))

describe('example workspaces', () => {
  let service: RunningService
  let dataDir: string
  let core: AppCore

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-examples-'))
    core = await openCore(dataDir, { demo: service, keychainService: `query-explorer-examples-${process.pid}` })
  })
  afterAll(async () => {
    await core?.close()
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('has world.qxw.json, the one the README and the e2e test open', () => {
    expect(files).toContain('world.qxw.json')
  })

  for (const name of files) {
    it(`${name} is in the form the app writes, and every query answers on the demo`, async () => {
      const text = readFileSync(join(EXAMPLES, name), 'utf8')
      const read = parseWorkspace(text, name)
      if (!read.ok) throw new Error(read.message)
      expect(serializeWorkspace(read.workspace)).toBe(text)
      expect(read.workspace.queries.length).toBeGreaterThan(0)
      for (const query of read.workspace.queries) {
        // A query set's template asks for {{query}}: it runs filled with the first query of a set that uses it.
        const firstText = read.workspace.sets?.find((set) => set.query === query.name)?.queries[0]?.text
        if (holdsPlaceholder(query.request)) expect(firstText, `${name}: "${query.name}" holds {{query}} but no set uses it`).toBeDefined()
        const request = firstText === undefined ? query.request : fillTemplate(query.request, firstText)
        const reply = await call<QueryReply>(core, 'query:run', { connectionId: 'demo', requestId: `example-${query.name}`.slice(0, 200), request })
        expect(reply.status, `${name}: "${query.name}" answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`).toBe(200)
        const body = reply.body as unknown
        const size = Array.isArray(body)
          ? body.length
          : typeof body === 'object' && body !== null
            ? ((body as { total?: number }).total ?? (body as { items?: unknown[] }).items?.length ?? (body as { options?: unknown[] }).options?.length ?? 0)
            : 0
        expect(size, `${name}: "${query.name}" found nothing: ${JSON.stringify(body).slice(0, 300)}`).toBeGreaterThan(0)
      }
    })
  }
})
