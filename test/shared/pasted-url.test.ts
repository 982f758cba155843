import { describe, expect, it } from 'vitest'
import { readPastedUrl, type PastedUrl } from '../../src/shared/query/pasted-url'

const DEMO = { name: 'Demo', queryUrl: 'http://127.0.0.1:4123/query', workspace: 'world' }

function read(url: string, target = DEMO): PastedUrl {
  const result = readPastedUrl(url, target)
  if (!result.ok) throw new Error(`expected ${url} to read: ${result.error.message}`)
  return result.value
}

describe('readPastedUrl: a URL from elsewhere', () => {
  it('reads a URL made against the current query URL without a note', () => {
    const pasted = read('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/madrid/results?count=10')
    expect(pasted.note).toBeNull()
    expect(pasted.base).toBe('http://127.0.0.1:4123/query')
    expect(pasted.request.steps).toEqual([{ endpoint: 'search', parameters: { query: 'madrid' } }])
  })

  it('reads the chain of a URL made against another base and says where it came from', () => {
    const pasted = read('http://127.0.0.1:1/query/world/api/places/e/search/p/query/madrid/results?count=10')
    expect(pasted.base).toBe('http://127.0.0.1:1/query')
    expect(pasted.request).toMatchObject({ workspace: 'world', api: 'places', options: { count: 10 } })
    expect(pasted.request.steps).toEqual([{ endpoint: 'search', parameters: { query: 'madrid' } }])
    expect(pasted.note).toBe('Read from http://127.0.0.1:1/query — it runs on the current connection, Demo.')
  })

  it('reads a versioned URL on another host', () => {
    const pasted = read('https://rest.spinque.com/4/world/api/places/e/search/p/query/x/results')
    expect(pasted.base).toBe('https://rest.spinque.com')
    expect(pasted.request.version).toBe('4')
  })

  it('says so when the URL is for another workspace, and still reads it', () => {
    const pasted = read('http://127.0.0.1:1/query/atlas/api/places/e/search/p/query/x/results')
    expect(pasted.request.workspace).toBe('atlas')
    expect(pasted.note).toContain('It was written for workspace "atlas"; it runs in "world", the workspace of Demo.')
    const same = read('http://127.0.0.1:4123/query/atlas/api/places/e/search/p/query/x/results')
    expect(same.note).toBe('It was written for workspace "atlas"; it runs in "world", the workspace of Demo.')
  })

  it('does not call a base foreign for a different letter case', () => {
    expect(read('HTTP://127.0.0.1:4123/query/world/api/places/e/search/p/query/x/results').note).toBeNull()
  })

  it('refuses what no reading makes a request of, with the codec message', () => {
    const foreign = readPastedUrl('http://127.0.0.1:1/query/nothing-here', DEMO)
    expect(foreign).toMatchObject({ ok: false, error: { message: expect.stringContaining('no "/<workspace>/api/<api>" found') } })
    expect(readPastedUrl('not a url', DEMO)).toMatchObject({ ok: false, error: { message: expect.stringContaining('not an absolute http(s) URL') } })
  })

  it('reports the error within the chain, not a base mismatch, for a broken URL under the own query URL', () => {
    const result = readPastedUrl('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/x/bogus?count=x', DEMO)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).not.toContain('does not start with the query URL')
  })
})
