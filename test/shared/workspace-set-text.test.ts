import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { parseWorkspace, serializeParsed, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { isTextOf } from '../../src/shared/workspace/workspace-text'

/**
 * A set's queries and judgments as the file writes them (workspace-text.ts
 * builds their text apart from the rest of the tree): a line each in the
 * readable layout, in the order of the set's queries then by item (UTF-16
 * code units, ties kept in the order held), escaped as JSON escapes them.
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
  judgments: [
    { query: 'a', item: 'z', grade: 1 },
    { query: 'b', item: 'é', grade: 0, by: 'R "one"' },
    { query: 'a', item: 'B\u0000', grade: 3 },
    { query: 'b', item: '😀', grade: 2 },
    { query: 'a', item: 'a\\b', grade: 2, by: '' },
  ],
}
const empty: QuerySet = { name: 'E', query: 'Q', queries: [], judgments: [] }

const readableSets = `  "sets": [
    {
      "name": "S",
      "query": "Q",
      "queries": [
        {"id":"b","text":"second \\"quoted\\""},
        {"id":"a","text":"first\u2028line","tags":["t"]}
      ],
      "judgments": [
        {"query":"b","item":"é","grade":0,"by":"R \\"one\\""},
        {"query":"b","item":"😀","grade":2},
        {"query":"a","item":"B\\u0000","grade":3},
        {"query":"a","item":"a\\\\b","grade":2,"by":""},
        {"query":"a","item":"z","grade":1}
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
  it('writes each query and judgment on a line of its own, judgments by query then item', () => {
    const text = serializeWorkspace(workspaceWith([set, empty]))
    expect(text.endsWith(readableSets)).toBe(true)
  })

  it('writes the compact layout with no white space, the same order', () => {
    const text = serializeWorkspace(workspaceWith([set, empty]), 'compact')
    expect(text.endsWith(
      '"sets":[{"name":"S","query":"Q","queries":[{"id":"b","text":"second \\"quoted\\""},{"id":"a","text":"first\u2028line","tags":["t"]}],' +
        '"judgments":[{"query":"b","item":"é","grade":0,"by":"R \\"one\\""},{"query":"b","item":"😀","grade":2},{"query":"a","item":"B\\u0000","grade":3},' +
        '{"query":"a","item":"a\\\\b","grade":2,"by":""},{"query":"a","item":"z","grade":1}]},{"name":"E","query":"Q","queries":[],"judgments":[]}]}',
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
    const plain: QuerySet = { ...set, name: 'P', judgments: [{ query: 'a', item: 'doc-1', grade: 1, by: 'R' }, { query: 'b', item: 'doc-2', grade: 100 }] }
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
    const workspace = workspaceWith([{ name: 'S', query: 'Q', queries: [{ id: 'a', text: 'a' }], judgments: [{ query: 'a', item: 'é', grade: 1, by: 'R' }] }])
    const text = serializeParsed(workspace)
    expect(isTextOf(text, workspace, 'readable')).toBe(true)
    expect(isTextOf(text.replace('"item":"é"', '"item":"\\u00e9"'), workspace, 'readable')).toBe(false)
    expect(isTextOf(text.replace('{"query":"a","item":"é","grade":1,"by":"R"}', '{"item":"é","query":"a","grade":1,"by":"R"}'), workspace, 'readable')).toBe(false)
    expect(isTextOf(text.replace('"grade":1', '"grade":1.0'), workspace, 'readable')).toBe(false)
  })
})
