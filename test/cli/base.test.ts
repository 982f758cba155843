import { describe, expect, it } from 'vitest'
import { checkBase } from '../../src/cli/commands/base'

/** --base: the query URL every request is written under. */

describe('checkBase', () => {
  it('takes an http or https URL with a host, with or without a path', () => {
    for (const base of ['https://q.example.com', 'http://127.0.0.1:8080', 'HTTPS://Q.EXAMPLE.COM/query/', 'http://h/v/7']) expect(checkBase(base)).toBeNull()
  })

  it('refuses what is not an http(s) URL with a host, quoting it and showing one that is', () => {
    for (const base of ['q.example.com', 'ftp://q.example.com', 'https://', 'https:///path', '']) {
      expect(checkBase(base)).toBe(`"${base}" is not an http(s) URL such as https://query.example.com`)
    }
  })

  it('refuses a query string or fragment: options belong to the request', () => {
    expect(checkBase('https://q.example.com/?count=10')).toBe('"https://q.example.com/?count=10" must not hold a query string or fragment: options belong to the request')
    expect(checkBase('https://q.example.com/query#top')).toBe('"https://q.example.com/query#top" must not hold a query string or fragment: options belong to the request')
  })
})
