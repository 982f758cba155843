import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  parseWorkspace,
  serializeWorkspace,
  type Workspace,
  type WorkspaceConnection,
} from '../../src/shared/workspace/workspace-file'
import { anyRequest, text } from './arbitraries'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'

const demo: WorkspaceConnection = FILE_DEMO_CONNECTION

const sample: Workspace = {
  format: 'query-explorer-workspace',
  version: 1,
  connections: [demo],
  queries: [
    {
      name: 'Paris',
      connection: 'demo',
      notes: 'the capital',
      request: {
        workspace: 'world',
        api: 'places',
        steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
        responseType: 'results',
        options: { count: 10, config: 'default' },
      },
    },
  ],
}

function parsed(textIn: string, fileName = 'team.qxw.json'): Workspace {
  const result = parseWorkspace(textIn, fileName)
  if (!result.ok) throw new Error(result.message)
  return result.workspace
}

function refusal(textIn: string, fileName = 'team.qxw.json'): string {
  const result = parseWorkspace(textIn, fileName)
  if (result.ok) throw new Error('expected the file to be refused')
  return result.message
}

const withTop = (extra: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(serializeWorkspace(sample)), ...extra })

describe('serializeWorkspace', () => {
  it('writes known keys in a fixed order, 2-space indent and a trailing newline', () => {
    const out = serializeWorkspace(sample)
    expect(out.endsWith('}\n')).toBe(true)
    expect(out.split('\n')[1]).toBe('  "format": "query-explorer-workspace",')
    expect(Object.keys(JSON.parse(out))).toEqual(['format', 'version', 'connections', 'queries'])
    expect(Object.keys(JSON.parse(out).queries[0])).toEqual(['name', 'connection', 'notes', 'request'])
    // Options come out in the URL's canonical order, whatever order they were set in.
    expect(Object.keys(JSON.parse(out).queries[0].request.options)).toEqual(['config', 'count'])
  })

  it('gives the same bytes however the same workspace was put together', () => {
    const shuffled = {
      queries: sample.queries.map((query) => ({ request: query.request, notes: query.notes, connection: query.connection, name: query.name })),
      connections: [Object.fromEntries(Object.entries(demo).reverse())],
      version: 1,
      format: 'query-explorer-workspace',
    } as unknown as Workspace
    expect(serializeWorkspace(shuffled)).toBe(serializeWorkspace(sample))
  })

  it('never writes a key the connection schema does not name', () => {
    const leaky = { ...sample, connections: [{ ...demo, deadlineSeconds: 30, builtIn: true }] } as unknown as Workspace
    expect(serializeWorkspace(leaky)).toBe(serializeWorkspace(sample))
  })

  it('refuses to write a secret-looking field, even among unknown top-level keys', () => {
    const withSecret = { ...sample, connections: [{ ...demo, clientSecret: 'canary-s3cret' }] } as unknown as Workspace
    expect(() => serializeWorkspace(withSecret)).toThrow(/connections\[0\]\.clientSecret looks like a secret/)
    const extra = { ...sample, later: [{ auth: { access_token: 'canary-t0ken' } }] } as Workspace
    expect(() => serializeWorkspace(extra)).toThrow(/later\[0\]\.auth\.access_token/)
  })
})

describe('parseWorkspace', () => {
  it('round-trips a workspace to the same bytes', () => {
    const once = serializeWorkspace(sample)
    expect(parsed(once)).toEqual(sample)
    expect(serializeWorkspace(parsed(once))).toBe(once)
  })

  it('fills in what a hand-written file may leave out: notes, options, parameters, the lists', () => {
    const minimal = {
      format: 'query-explorer-workspace',
      version: 1,
      connections: [demo],
      queries: [{ name: 'q', connection: 'demo', request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'all' }], responseType: 'count' } }],
    }
    const workspace = parsed(JSON.stringify(minimal))
    expect(workspace.queries[0]).toMatchObject({ notes: '', request: { options: {}, steps: [{ endpoint: 'all', parameters: {} }] } })
    expect(parsed('{"format":"query-explorer-workspace","version":1}')).toMatchObject({ connections: [], queries: [] })
  })

  it('keeps unknown top-level keys on save, sorted after the known ones', () => {
    const textIn = withTop({ zeta: 1, later: [{ anything: true }], tests: [{ expect: { totalAtLeast: 1 }, query: 'Paris', name: 'has rows' }] })
    const workspace = parsed(textIn)
    const out = serializeWorkspace(workspace)
    expect(JSON.parse(out).later).toEqual([{ anything: true }])
    expect(JSON.stringify(JSON.parse(out).tests)).toBe('[{"name":"has rows","query":"Paris","expect":{"totalAtLeast":1}}]')
    expect(Object.keys(JSON.parse(out))).toEqual(['format', 'version', 'connections', 'queries', 'tests', 'later', 'zeta'])
    expect(serializeWorkspace(parsed(out))).toBe(out)
  })

  it('refuses a file from a newer version, naming the file and the version', () => {
    const message = refusal(withTop({ version: 2 }), 'from-the-future.qxw.json')
    expect(message).toContain('"from-the-future.qxw.json"')
    expect(message).toContain('newer Query Explorer (workspace format version 2)')
    expect(message).toContain('reads version 1')
  })

  it('refuses text that is not JSON, naming the file', () => {
    expect(refusal('{"format": "query-explorer-workspace",', 'broken.qxw.json')).toMatch(/^"broken\.qxw\.json" is not valid JSON: /)
  })

  it('refuses JSON of another format, saying what the format was', () => {
    expect(refusal('{"name": "my-app", "version": "1.0.0"}', 'package.json')).toBe(
      '"package.json" is not a Query Explorer workspace: it has no "format", expected "query-explorer-workspace".',
    )
    expect(refusal('{"format": "postman-collection"}')).toContain('its "format" is "postman-collection"')
    expect(refusal('[1, 2]')).toContain('it holds no JSON object')
  })

  it('names the field and the rule of an invalid workspace', () => {
    const bad = JSON.parse(serializeWorkspace(sample))
    bad.queries[0].request.responseType = 'everything'
    delete bad.connections[0].queryUrl
    const message = refusal(JSON.stringify(bad), 'bad.qxw.json')
    expect(message).toMatch(/^"bad\.qxw\.json" is not a valid workspace: /)
    expect(message).toContain('connections[0].queryUrl: is missing (expected string)')
    expect(message).toContain('queries[0].request.responseType: ')
  })

  it('refuses a query whose connection is not in the file, and ids or names used twice', () => {
    const bad = JSON.parse(serializeWorkspace(sample))
    bad.queries[0].connection = 'elsewhere'
    expect(refusal(JSON.stringify(bad))).toContain('queries[0].connection: names no connection of this file ("elsewhere")')
    const twice = JSON.parse(serializeWorkspace(sample))
    twice.connections.push(twice.connections[0])
    twice.queries.push(twice.queries[0])
    const message = refusal(JSON.stringify(twice))
    expect(message).toContain('connections[1].id: the id "demo" is used by two connections')
    expect(message).toContain('queries[1].name: the name "Paris" is used by two queries')
  })

  it.each([
    ['connections', 0, 'clientSecret'],
    ['connections', 0, 'secret'],
    ['connections', 0, 'token'],
    ['connections', 0, 'access_token'],
    ['connections', 0, 'Password'],
    ['queries', 0, 'apiKey'],
  ])('refuses a secret-looking field (%s[%i].%s) with a message', (list, index, key) => {
    const bad = JSON.parse(serializeWorkspace(sample))
    bad[list][index][key] = 'canary-value'
    const message = refusal(JSON.stringify(bad), 'shared.qxw.json')
    expect(message).toContain(`"shared.qxw.json" holds a field that looks like a secret or a token (${list}[${index}].${key})`)
    expect(message).not.toContain('canary-value')
  })

  it('refuses a secret-looking field at the top level and deep inside an unknown key', () => {
    expect(refusal(withTop({ client_secret: 'x' }))).toContain('(client_secret)')
    expect(refusal(withTop({ tests: [{ headers: { Authorization: 'Bearer x' } }] }))).toContain('(tests[0].headers.Authorization)')
  })

  it('keeps a parameter named __proto__, in its place (an ordinary name to the URL codec)', () => {
    const textIn = serializeWorkspace(sample).replace('"query": "paris"', '"a": "1",\n              "__proto__": "x",\n              "query": "paris"')
    const workspace = parsed(textIn)
    expect(Object.keys((workspace.queries[0]!.request.steps[0] as { parameters: object }).parameters)).toEqual(['a', '__proto__', 'query'])
    expect(serializeWorkspace(workspace)).toBe(textIn)
    expect(refusal(textIn.replace('"__proto__": "x"', '"__proto__": {"polluted": true}'))).toContain(
      'queries[0].request.steps[0].parameters.__proto__: expected string',
    )
  })

  it('accepts the token request kind and API parameters that happen to have such names', () => {
    const ws = structuredClone(sample)
    ws.connections[0]!.tokenRequest = 'oauth'
    ws.queries[0]!.request.steps = [{ endpoint: 'search', parameters: { token: 'word' } }]
    const out = serializeWorkspace(ws)
    expect(parsed(out)).toEqual(ws)
  })
})

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
