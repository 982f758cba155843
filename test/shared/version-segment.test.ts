import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { buildDescriptionUrl, buildSentUrl, buildUrl, rootMemo, rootPath } from '../../src/shared/query/url'
import { sentVersion, versionSegment, withSentVersion } from '../../src/shared/query/version-segment'

const BASE = 'https://query.example.com/'
const request: QueryRequest = { workspace: 'ws', api: 'a', steps: [{ endpoint: 'e1', parameters: {} }], responseType: 'results', options: {} }

describe('the version segment', () => {
  it('is written after the query URL, percent-encoded, or not at all', () => {
    expect(versionSegment(undefined)).toBe('')
    expect(versionSegment('4')).toBe('/4')
    expect(versionSegment('4.1')).toBe('/4.1')
    expect(versionSegment('4 1')).toBe('/4%201')
  })

  it("is the request's own version, else the connection's", () => {
    expect(sentVersion('3', '4')).toBe('3')
    expect(sentVersion(undefined, '4')).toBe('4')
    expect(sentVersion(undefined, undefined)).toBeUndefined()
  })

  it('fills in the connection version without copying a request that needs none', () => {
    expect(withSentVersion(request, undefined)).toBe(request)
    const own = { ...request, version: '3' }
    expect(withSentVersion(own, '4')).toBe(own)
    expect(withSentVersion(request, '4')).toEqual({ ...request, version: '4' })
    expect(request.version).toBeUndefined()
  })

  it('gives the same URLs in the sent URL, the description URL and a memo', () => {
    expect(buildSentUrl(BASE, '4', request)).toBe('https://query.example.com/4/ws/api/a/e/e1/results')
    expect(buildSentUrl(BASE, '4', { ...request, version: '3' })).toBe('https://query.example.com/3/ws/api/a/e/e1/results')
    expect(buildSentUrl(BASE, undefined, request)).toBe(buildUrl(BASE, request))
    expect(buildDescriptionUrl(BASE, { version: '4', workspace: 'ws', api: 'a' })).toBe('https://query.example.com/4/ws/api/a/')
    expect(buildDescriptionUrl(BASE, { workspace: 'ws', api: 'a' })).toBe('https://query.example.com/ws/api/a/')
    const memo = rootMemo()
    for (const version of ['4', '4', undefined, '5']) {
      expect(memo(version, 'my ws', 'a')).toBe(rootPath(version, 'my ws', 'a'))
      expect(buildUrl(BASE, { ...request, version }, memo)).toBe(buildUrl(BASE, { ...request, version }))
    }
    expect(memo('4', 'other', 'a')).toBe('/4/other/api/a')
  })
})
