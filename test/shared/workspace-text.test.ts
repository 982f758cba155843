import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { parseWorkspace } from '../../src/shared/workspace/workspace-parse'
import type { Workspace } from '../../src/shared/workspace/workspace-schema'
import { isTextOf, layoutOf, serializeParsed, serializeWorkspace } from '../../src/shared/workspace/workspace-text'
import { FILE_DEMO_CONNECTION as demo } from '../fixtures/file-demo-connection'
import { sampleWorkspace as sample } from '../fixtures/sample-workspace'

/**
 * The workspace file's text: known keys in a fixed order, the same bytes for
 * the same workspace, nothing the schema does not name and no secret written.
 * A set's queries and judgments (built apart from the rest of the tree): a
 * line each in the readable layout, in the order of the set's queries then by
 * item (UTF-16 code units, ties kept in the order held), escaped as JSON
 * escapes them.
 */

const connection = { id: 'c', name: 'C', authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query', workspace: 'w', api: 'a', config: 'default', clientId: 'x' }

function workspaceWith(sets: QuerySet[]): Workspace {
  return { format: 'query-explorer-workspace', version: 1, connections: [connection], queries: [{ name: 'Q', connection: 'c', notes: '', request: { version: '1', workspace: 'w', api: 'a', steps: [], responseType: 'results', options: {} } as never }], sets }
}

const set: QuerySet = {
  name: 'S',
  query: 'Q',
  queries: [
    { id: 'b', text: 'second "quoted"' },
    { id: 'a', text: 'first\u2028line', tags: ['t'] },
  ],
  // Listed: the raters its judgments name join it, as people.
  raters: [{ name: 'Ann', kind: 'import' }],
  judgments: [
    { query: 'a', item: 'z', rater: 'r1', grade: 1 },
    { query: 'b', item: 'é', rater: 'R "one"', grade: 0 },
    { query: 'a', item: 'B\u0000', rater: 'r1', grade: 3 },
    { query: 'b', item: '😀', rater: 'r1', grade: 2 },
    { query: 'a', item: 'a\\b', rater: 'r0', grade: 2 },
    { query: 'a', item: 'z', rater: 'Ann', grade: 2 },
  ],
}
const empty: QuerySet = { name: 'E', query: 'Q', queries: [], judgments: [] }

const readableSets = `  "sets": [
    {
      "name": "S",
      "query": "Q",
      "raters": [
        {"name":"Ann","kind":"import"},
        {"name":"R \\"one\\"","kind":"person"},
        {"name":"r0","kind":"person"},
        {"name":"r1","kind":"person"}
      ],
      "queries": [
        {"id":"b","text":"second \\"quoted\\""},
        {"id":"a","text":"first\u2028line","tags":["t"]}
      ],
      "judgments": [
        {"query":"b","item":"é","rater":"R \\"one\\"","grade":0},
        {"query":"b","item":"😀","rater":"r1","grade":2},
        {"query":"a","item":"B\\u0000","rater":"r1","grade":3},
        {"query":"a","item":"a\\\\b","rater":"r0","grade":2},
        {"query":"a","item":"z","rater":"Ann","grade":2},
        {"query":"a","item":"z","rater":"r1","grade":1}
      ]
    },
    {
      "name": "E",
      "query": "Q",
      "queries": [],
      "judgments": []
    }
  ]
}
`

describe("a set's text", () => {
  it('writes each query, rater and judgment on a line of its own: raters by name, judgments by query, item, then rater', () => {
    const text = serializeWorkspace(workspaceWith([set, empty]))
    expect(text.endsWith(readableSets)).toBe(true)
    // A set that lists no rater (a file of the previous format, or people's grades only) is written without the list: as it was read.
    const { raters: _raters, ...unlisted } = set
    expect(serializeWorkspace(workspaceWith([unlisted, empty]))).not.toContain('"raters"')
  })

  it('writes the compact layout with no white space, the same order', () => {
    const text = serializeWorkspace(workspaceWith([set, empty]), 'compact')
    expect(text.endsWith(
      '"sets":[{"name":"S","query":"Q","raters":[{"name":"Ann","kind":"import"},{"name":"R \\"one\\"","kind":"person"},{"name":"r0","kind":"person"},{"name":"r1","kind":"person"}],' +
        '"queries":[{"id":"b","text":"second \\"quoted\\""},{"id":"a","text":"first\u2028line","tags":["t"]}],' +
        '"judgments":[{"query":"b","item":"é","rater":"R \\"one\\"","grade":0},{"query":"b","item":"😀","rater":"r1","grade":2},{"query":"a","item":"B\\u0000","rater":"r1","grade":3},' +
        '{"query":"a","item":"a\\\\b","rater":"r0","grade":2},{"query":"a","item":"z","rater":"Ann","grade":2},{"query":"a","item":"z","rater":"r1","grade":1}]},{"name":"E","query":"Q","queries":[],"judgments":[]}]}',
    )).toBe(true)
  })

  it('reads back what it wrote, in both layouts, and writes it again to the byte', () => {
    for (const layout of ['readable', 'compact'] as const) {
      const text = serializeWorkspace(workspaceWith([set, empty]), layout)
      const read = parseWorkspace(text, 'x.qxw.json')
      expect(read.ok).toBe(true)
      if (read.ok) expect(serializeParsed(read.workspace, layout)).toBe(text)
    }
  })

  it("knows a workspace's own text, in its layout, and nothing else (file-worker.ts takes a file's facts from it)", () => {
    const plain: QuerySet = { ...set, name: 'P', judgments: [{ query: 'a', item: 'doc-1', rater: 'R', grade: 1 }, { query: 'b', item: 'doc-2', rater: 'r1', grade: 100 }] }
    const workspace = workspaceWith([set, empty, plain])
    for (const layout of ['readable', 'compact'] as const) {
      const text = serializeParsed(workspace, layout)
      expect(isTextOf(text, workspace, layout)).toBe(true)
      expect(isTextOf(text, workspace, layout === 'readable' ? 'compact' : 'readable')).toBe(false)
      expect(isTextOf(`\uFEFF${text}`, workspace, layout)).toBe(false)
      expect(isTextOf(`${text} `, workspace, layout)).toBe(false)
      expect(isTextOf(text.slice(0, -1), workspace, layout)).toBe(false)
      // Any one character changed, taken out or put in, anywhere (the judgments' lines included) is another text.
      fc.assert(
        fc.property(fc.integer({ min: 0, max: text.length - 1 }), fc.constantFrom('change', 'drop', 'add'), (at, how) => {
          const other = how === 'drop' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + (how === 'add' ? ' ' : text[at] === 'x' ? 'y' : 'x') + text.slice(how === 'add' ? at : at + 1)
          expect(isTextOf(other, workspace, layout)).toBe(false)
        }),
        { numRuns: 1_000 },
      )
    }
  })

  it('does not take a judgment written otherwise than the app writes it (an escape spelled out, keys in another order)', () => {
    const workspace = workspaceWith([{ name: 'S', query: 'Q', queries: [{ id: 'a', text: 'a' }], judgments: [{ query: 'a', item: 'é', rater: 'R', grade: 1 }] }])
    const text = serializeParsed(workspace)
    expect(isTextOf(text, workspace, 'readable')).toBe(true)
    expect(isTextOf(text.replace('"item":"é"', '"item":"\\u00e9"'), workspace, 'readable')).toBe(false)
    expect(isTextOf(text.replace('{"query":"a","item":"é","rater":"R","grade":1}', '{"item":"é","query":"a","rater":"R","grade":1}'), workspace, 'readable')).toBe(false)
    expect(isTextOf(text.replace('"grade":1', '"grade":1.0'), workspace, 'readable')).toBe(false)
  })
})

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

  it('writes the compact layout on one line, the same keys in the same order; a layout is told by its line breaks', () => {
    const readable = serializeWorkspace({ ...sample, queries: [{ ...sample.queries[0]!, notes: 'two\nlines' }] })
    const compact = serializeWorkspace({ ...sample, queries: [{ ...sample.queries[0]!, notes: 'two\nlines' }] }, 'compact')
    expect(compact).toBe(JSON.stringify(JSON.parse(readable)))
    expect(layoutOf(compact)).toBe('compact')
    expect(layoutOf(readable)).toBe('readable')
  })

  it('refuses to write what the schema refuses, naming the field', () => {
    const bad = { ...sample, queries: [{ ...sample.queries[0]!, connection: 'nowhere' }] }
    expect(() => serializeWorkspace(bad)).toThrow('The workspace was not saved: queries[0].connection: names no connection of this file ("nowhere").')
  })
})
