import { describe, expect, it } from 'vitest'
import { matchConnection, relationTo, urlRelation, type AppConnectionFacts } from '../../src/shared/workspace/connection-match'

const file = {
  authUrl: 'http://127.0.0.1:8080/auth',
  queryUrl: 'http://127.0.0.1:8080/query',
  workspace: 'world',
  clientId: 'demo',
}

const app = (id: string, fields: Partial<AppConnectionFacts> = {}): AppConnectionFacts => ({ id, ...file, ...fields })

describe('urlRelation', () => {
  it('is same for the same address, whatever the case of the host or a trailing slash', () => {
    expect(urlRelation('http://127.0.0.1:8080/auth', 'http://127.0.0.1:8080/auth')).toBe('same')
    expect(urlRelation('https://Search.Example.org/query/', 'https://search.example.org/query')).toBe('same')
    expect(urlRelation('https://search.example.org:443/q', 'https://search.example.org/q')).toBe('same')
    expect(urlRelation('', '')).toBe('same')
  })

  it('is moved when only the host or port differs', () => {
    expect(urlRelation('http://127.0.0.1:8080/auth', 'http://127.0.0.1:41234/auth')).toBe('moved')
    expect(urlRelation('https://staging.example.org/query', 'https://prod.example.org:8443/query')).toBe('moved')
  })

  it('is other for another scheme, path or query string, or text that is no URL', () => {
    expect(urlRelation('http://127.0.0.1:8080/auth', 'https://127.0.0.1:8080/auth')).toBe('other')
    expect(urlRelation('http://127.0.0.1:8080/auth', 'http://127.0.0.1:8080/auth2')).toBe('other')
    expect(urlRelation('http://h/q?tenant=a', 'http://h/q?tenant=b')).toBe('other')
    expect(urlRelation('not a url', 'http://h/q')).toBe('other')
    expect(urlRelation('', 'http://h/q')).toBe('other')
  })
})

describe('relationTo', () => {
  it('needs the same workspace and client ID', () => {
    expect(relationTo(file, app('a'))).toBe('same')
    expect(relationTo(file, app('a', { workspace: 'other' }))).toBeNull()
    expect(relationTo(file, app('a', { clientId: 'someone-else' }))).toBeNull()
  })

  it('is moved when either URL moved, and null when either goes elsewhere', () => {
    expect(relationTo(file, app('a', { queryUrl: 'http://127.0.0.1:9/query' }))).toBe('moved')
    expect(relationTo(file, app('a', { authUrl: 'http://127.0.0.1:9/auth', queryUrl: 'http://10.0.0.1/query' }))).toBe('moved')
    expect(relationTo(file, app('a', { authUrl: 'http://127.0.0.1:9/login' }))).toBeNull()
  })
})

describe('matchConnection', () => {
  it('prefers the same connection over a moved one, wherever it is in the list', () => {
    const list = [app('moved', { authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query' }), app('same')]
    expect(matchConnection(file, list, 'demo')).toEqual({ connectionId: 'same', how: 'same' })
  })

  it('takes the demo among several moved ones (its port changes every launch), else the first', () => {
    const moved = (id: string, port: number) => app(id, { authUrl: `http://127.0.0.1:${port}/auth`, queryUrl: `http://127.0.0.1:${port}/query` })
    const list = [moved('copy', 1), moved('demo', 2), moved('other', 3)]
    expect(matchConnection(file, list, 'demo')).toEqual({ connectionId: 'demo', how: 'moved' })
    expect(matchConnection(file, list.filter((c) => c.id !== 'demo'), 'demo')).toEqual({ connectionId: 'copy', how: 'moved' })
  })

  it('takes the demo among several same ones too', () => {
    expect(matchConnection(file, [app('mine'), app('demo')], 'demo')).toEqual({ connectionId: 'demo', how: 'same' })
  })

  it('is null when nothing fits: the user is asked', () => {
    expect(matchConnection(file, [], 'demo')).toBeNull()
    expect(matchConnection(file, [app('a', { workspace: 'films' }), app('b', { authUrl: 'https://h/auth' })], 'demo')).toBeNull()
  })

  it('binds a public connection (no auth URL, no client ID) by its query URL', () => {
    const open = { authUrl: '', queryUrl: 'https://h/query', workspace: 'w', clientId: '' }
    expect(matchConnection(open, [app('p', { authUrl: '', queryUrl: 'https://other/query', workspace: 'w', clientId: '' })])).toEqual({ connectionId: 'p', how: 'moved' })
  })
})
