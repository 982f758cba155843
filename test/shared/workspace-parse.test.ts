import { describe, expect, it } from 'vitest'
import { parseWorkspace } from '../../src/shared/workspace/workspace-parse'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-text'
import { FILE_DEMO_CONNECTION as demo } from '../fixtures/file-demo-connection'
import { fileRefusal as refusal, parsed, sampleWorkspace as sample, withTop } from '../fixtures/sample-workspace'

/**
 * Reading a workspace file's text, as hostile input: JSON, then the format
 * and version, the depth, secret-looking names, the schema, each refusal
 * naming the file and the field; and what a hand-written file may leave out.
 */

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
  it('reads a file that starts with a byte order mark', () => {
    expect(parseWorkspace(`\uFEFF${serializeWorkspace(sample)}`, 'bom.qxw.json')).toEqual({ ok: true, workspace: sample })
  })

  it('refuses a file nested deeper than 64 levels before reading it further, naming the file', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 70; i++) deep = [deep]
    expect(refusal(withTop({ later: deep }), 'deep.qxw.json')).toBe('"deep.qxw.json" nests its values too deeply to be a workspace.')
  })

  it('names the first five problems and counts the rest', () => {
    const bad = JSON.parse(serializeWorkspace(sample))
    bad.queries = Array.from({ length: 8 }, (_, i) => ({ name: `q${i}`, connection: 'elsewhere', request: bad.queries[0].request }))
    const message = refusal(JSON.stringify(bad))
    expect(message.match(/names no connection of this file/g)).toHaveLength(5)
    expect(message).toMatch(/queries\[4\]\.connection: names no connection of this file \("elsewhere"\) \(and 3 more\)\.$/)
  })

  it('keeps an unknown option named __proto__ too, and refuses one that is not text', () => {
    const textIn = withTop({ queries: [{ ...JSON.parse(serializeWorkspace(sample)).queries[0], request: { ...sample.queries[0]!.request, options: { extra: JSON.parse('{"__proto__":"x","b":"y"}') } } }] })
    const workspace = parsed(textIn)
    expect(Object.entries(workspace.queries[0]!.request.options.extra!)).toEqual([
      ['__proto__', 'x'],
      ['b', 'y'],
    ])
    expect(refusal(textIn.replace('"__proto__":"x"', '"__proto__":{"polluted":true}'))).toContain('queries[0].request.options.extra.__proto__: expected string')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
