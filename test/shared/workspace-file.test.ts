import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { anyRequest, text } from './arbitraries'
import { fileRefusal as refusal, parsed, sampleWorkspace as sample, withTop } from '../fixtures/sample-workspace'

/**
 * The workspace file as a whole: test cases read, checked and written, any
 * workspace through a save and a read, the folder's purity, the example.
 * Each part's own cases are beside its module: workspace-parse (reading a
 * file's text), workspace-text (writing it), workspace-schema, workspace-secrets.
 */

const connection = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 8 }),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    authUrl: text,
    queryUrl: text,
    version: fc.string({ maxLength: 4 }),
    workspace: fc.string({ minLength: 1, maxLength: 10 }),
    api: text,
    config: text,
    clientId: text,
    tokenRequest: fc.constantFrom('json' as const, 'oauth' as const),
  },
  { requiredKeys: ['id', 'name', 'authUrl', 'queryUrl', 'workspace', 'api', 'clientId'] },
)

/** Unknown top-level keys hold any JSON, under names that are neither known keys nor secret-looking. */
const extraName = fc.constantFrom('later', 'zeta', 'Alpha', 'x-custom', 'é', '10', '2')
const workspace: fc.Arbitrary<Workspace> = fc
  .uniqueArray(connection, { minLength: 1, maxLength: 3, selector: (c) => c.id })
  .chain((connections) =>
    fc.record({
      connections: fc.constant(connections),
      queries: fc.uniqueArray(
        fc.record({
          name: fc.string({ minLength: 1, maxLength: 20 }),
          connection: fc.constantFrom(...connections.map((c) => c.id)),
          notes: text,
          request: anyRequest,
        }),
        { maxLength: 4, selector: (q) => q.name },
      ),
      extras: fc.dictionary(extraName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
    }),
  )
  .map(({ connections, queries, extras }) => ({ format: 'query-explorer-workspace', version: 1, connections, queries, ...extras }) as Workspace)

describe('test cases in a workspace', () => {
  const ownRequest = { name: 'own', connection: 'demo', request: JSON.parse(serializeWorkspace(sample)).queries[0].request, expect: { status: 200 } }

  it('are read, checked and written in a fixed key order', () => {
    const connection = JSON.parse(serializeWorkspace(sample)).connections[0].id as string
    const tests = [
      { expect: { snapshot: { minRbo: 0.8, ids: ['b', 'a'] }, status: 200 }, query: 'Paris', name: 'snap' },
      { ...ownRequest, connection },
      { expect: { snapshot: { minRbo: 0.8, names: ['B', ''], ids: ['b', 'a'] } }, query: 'Paris', name: 'named' },
    ]
    const out = serializeWorkspace(parsed(withTop({ tests })))
    const written = JSON.parse(out).tests
    expect(Object.keys(written[0])).toEqual(['name', 'query', 'expect'])
    expect(Object.keys(written[0].expect)).toEqual(['status', 'snapshot'])
    expect(Object.keys(written[0].expect.snapshot)).toEqual(['ids', 'minRbo'])
    expect(Object.keys(written[1])).toEqual(['name', 'connection', 'request', 'expect'])
    // A snapshot's names are kept beside its ids.
    expect(written[2].expect.snapshot).toEqual({ ids: ['b', 'a'], names: ['B', ''], minRbo: 0.8 })
    expect(serializeWorkspace(parsed(out))).toBe(out)
  })

  it('refuses two cases with one name, a case naming no connection of the file, and an unknown expectation', () => {
    const twice = [{ name: 'a', query: 'Paris', expect: {} }, { name: 'a', query: 'Paris', expect: {} }]
    expect(refusal(withTop({ tests: twice }))).toContain('tests[1].name: the name "a" is used by two test cases')
    expect(refusal(withTop({ tests: [{ ...ownRequest, connection: 'nowhere' }] }))).toContain('tests[0].connection: names no connection of this file ("nowhere")')
    expect(refusal(withTop({ tests: [{ name: 'a', query: 'Paris', expect: { minTotal: 1 } }] }))).toContain('tests[0].expect')
  })
})

describe('workspace property', () => {
  it('serialize(parse(serialize(x))) is serialize(x), and parse gives the workspace back', () => {
    fc.assert(
      fc.property(workspace, (ws) => {
        const once = serializeWorkspace(ws)
        const back = parseWorkspace(once, 'p.qxw.json')
        if (!back.ok) throw new Error(back.message)
        expect(serializeWorkspace(back.workspace)).toBe(once)
        // Through JSON: the file cannot tell -0 from 0.
        expect(back.workspace.queries.map((q) => q.request)).toEqual(JSON.parse(JSON.stringify(ws.queries.map((q) => q.request))))
      }),
      { numRuns: 300 },
    )
  })
})

describe('src/shared/workspace', () => {
  it('imports only shared modules and zod, and uses no Node or DOM API', () => {
    const folder = join(__dirname, '../../src/shared/workspace')
    // Every module the file format is split into (workspace-file.ts gathers them), not only the one that gathers them.
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts'))
    expect(files).toContain('workspace-file.ts')
    for (const file of files) {
      const source = readFileSync(join(folder, file), 'utf8')
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!)
      expect(imports.filter((name) => !/^(\.\.\/[a-z-]+(\/[a-z-]+)?|\.\/[a-z-]+|zod)$/.test(name)), file).toEqual([])
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''")
      expect(code.match(/\b(process|Buffer|require|window|document|navigator|localStorage|setTimeout|fetch)\b/), file).toBeNull()
    }
  })
})

describe('examples', () => {
  it('big-spanish-cities.qxw.json parses and is written in the saved form', () => {
    const file = join(__dirname, '../../examples/big-spanish-cities.qxw.json')
    const source = readFileSync(file, 'utf8')
    const workspace = parsed(source, 'big-spanish-cities.qxw.json')
    expect(workspace.queries.map((q) => q.name)).toEqual(['Big Spanish cities'])
    expect(workspace.queries[0]!.request.steps).toEqual([
      { endpoint: 'search', parameters: { query: 'san' } },
      { endpoint: 'country:FILTER', parameters: { value: '1("ES")' } },
      { endpoint: 'population', parameters: { min: '100000' } },
    ])
    expect(serializeWorkspace(workspace)).toBe(source)
  })
})
