import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  checkConnectionRules,
  checkHttpUrl,
  AUDIENCE_MAX_LENGTH,
  DEADLINE_SECONDS,
  deadlineProblemMessage,
  SECRET_NEEDS_CLIENT_ID,
} from '../../src/shared/connections/connection-rules'
import type { ConnectionInput } from '../../src/shared/ipc/contract'

const GOOD: ConnectionInput = {
  name: 'Local',
  authUrl: 'https://auth.example.com',
  queryUrl: 'https://query.example.com/query',
  workspace: 'world',
  api: 'places',
  clientId: 'client',
}

const problemsOf = (input: Partial<ConnectionInput>) => checkConnectionRules({ ...GOOD, ...input }).problems

describe('checkHttpUrl', () => {
  it('accepts http and https URLs and hands back the parsed URL', () => {
    const http = checkHttpUrl('http://127.0.0.1:4123/query')
    expect(http.ok && http.url.origin).toBe('http://127.0.0.1:4123')
    expect(checkHttpUrl('https://query.example.com').ok).toBe(true)
  })

  it('names text that is no URL, quoting at most 200 characters', () => {
    expect(checkHttpUrl('nope')).toEqual({ ok: false, message: '"nope" is not a valid URL.' })
    const long = checkHttpUrl('x'.repeat(500))
    expect(!long.ok && long.message).toBe(`"${'x'.repeat(200)}" is not a valid URL.`)
  })

  it('refuses another scheme', () => {
    expect(checkHttpUrl('ftp://x')).toEqual({ ok: false, message: 'The URL must start with http:// or https:// (got ftp:).' })
  })

  it('refuses a user name or password in the URL', () => {
    const message = 'The URL must not carry a user name or password; the client secret goes in its own field.'
    expect(checkHttpUrl('https://user:pw@query.example.com')).toEqual({ ok: false, message })
    expect(checkHttpUrl('https://user@query.example.com')).toEqual({ ok: false, message })
  })
})

describe('checkConnectionRules', () => {
  it('passes a good profile, unchanged, with no problems', () => {
    expect(checkConnectionRules(GOOD)).toEqual({ input: GOOD, problems: [] })
  })

  it('trims every text field and leaves out an empty version or config', () => {
    const { input, problems } = checkConnectionRules({
      id: 'keep',
      name: '  Local ',
      authUrl: ' https://auth.example.com ',
      queryUrl: '\thttps://query.example.com/query\n',
      workspace: ' world ',
      api: ' places ',
      clientId: ' client ',
      version: '   ',
      config: ' ',
      deadlineSeconds: 30,
      tokenRequest: 'oauth',
    })
    expect(problems).toEqual([])
    expect(input).toEqual({ ...GOOD, id: 'keep', deadlineSeconds: 30, tokenRequest: 'oauth' })
    expect(input).not.toHaveProperty('version')
    expect(input).not.toHaveProperty('config')
    expect(checkConnectionRules({ ...GOOD, version: ' 4.1 ', config: ' fast ' }).input).toMatchObject({ version: '4.1', config: 'fast' })
  })

  it('does not change the input it is given', () => {
    const input = { ...GOOD, name: ' Local ', version: '' }
    checkConnectionRules(input)
    expect(input).toEqual({ ...GOOD, name: ' Local ', version: '' })
  })

  it('asks for a name', () => {
    expect(problemsOf({ name: '   ' })).toEqual([{ field: 'name', message: 'Name: give the connection a name.' }])
  })

  it('asks for the URLs, each named by its label', () => {
    expect(problemsOf({ queryUrl: ' ' })).toEqual([{ field: 'queryUrl', message: 'Query URL: enter the address, starting with http:// or https://.' }])
    expect(problemsOf({ authUrl: '' })).toEqual([{ field: 'authUrl', message: 'Auth URL: enter the address, starting with http:// or https://.' }])
  })

  it('lets a public API (no client ID) go without an auth URL, but checks one that is given', () => {
    expect(problemsOf({ authUrl: ' ', clientId: ' ' })).toEqual([])
    expect(problemsOf({ authUrl: 'ftp://x', clientId: '' })).toEqual([
      { field: 'authUrl', message: 'Auth URL: The URL must start with http:// or https:// (got ftp:).' },
    ])
  })

  it('passes on the URL rule’s sentence after the label', () => {
    expect(problemsOf({ queryUrl: 'nope' })).toEqual([{ field: 'queryUrl', message: 'Query URL: "nope" is not a valid URL.' }])
    expect(problemsOf({ authUrl: 'https://a:b@auth.example.com' })).toEqual([
      { field: 'authUrl', message: 'Auth URL: The URL must not carry a user name or password; the client secret goes in its own field.' },
    ])
  })

  it('wants a numeric version, or none', () => {
    for (const version of ['4', '4.1', '10.2.3', '', ' ']) expect(problemsOf({ version })).toEqual([])
    expect(problemsOf({ version: 'v4' })).toEqual([{ field: 'version', message: 'Version: a number such as 4 (or leave it empty), not "v4".' }])
    expect(problemsOf({ version: '4.' })[0]?.field).toBe('version')
    expect(problemsOf({ version: '1'.repeat(19) + 'x'.repeat(10) })[0]?.message).toBe(
      `Version: a number such as 4 (or leave it empty), not "${'1'.repeat(19)}x".`,
    )
  })

  it('asks for a workspace', () => {
    expect(problemsOf({ workspace: ' ' })).toEqual([{ field: 'workspace', message: 'Workspace: enter the workspace name.' }])
  })

  it(`wants a deadline of whole seconds from ${DEADLINE_SECONDS.min} to ${DEADLINE_SECONDS.max}`, () => {
    expect(DEADLINE_SECONDS).toEqual({ min: 1, max: 600 })
    for (const deadlineSeconds of [1, 60, 600]) expect(problemsOf({ deadlineSeconds })).toEqual([])
    expect(problemsOf({ deadlineSeconds: 0.5 })).toEqual([
      { field: 'deadlineSeconds', message: 'Request deadline: a whole number of seconds from 1 to 600 (or leave it empty for 60), not 0.5.' },
    ])
    for (const deadlineSeconds of [0, 601, -5, Number.NaN, Infinity]) {
      expect(problemsOf({ deadlineSeconds })).toEqual([{ field: 'deadlineSeconds', message: deadlineProblemMessage(String(deadlineSeconds)) }])
    }
  })

  it('words the deadline with the value as given, cut to 20 characters', () => {
    expect(deadlineProblemMessage('abc')).toBe('Request deadline: a whole number of seconds from 1 to 600 (or leave it empty for 60), not abc.')
    expect(deadlineProblemMessage('9'.repeat(30))).toContain(`not ${'9'.repeat(20)}.`)
  })

  it('keeps an audience exactly but for surrounding space (a trailing slash stays), and leaves an empty one out', () => {
    expect(checkConnectionRules({ ...GOOD, tokenRequest: 'oauth', audience: ' https://rest.spinque.com/ ' }).input.audience).toBe('https://rest.spinque.com/')
    expect(checkConnectionRules({ ...GOOD, audience: 'urn:my-api' }).input.audience).toBe('urn:my-api')
    expect(checkConnectionRules({ ...GOOD, audience: '  ' }).input).not.toHaveProperty('audience')
    expect(problemsOf({ audience: '   ' })).toEqual([])
  })

  it(`bounds the audience to ${AUDIENCE_MAX_LENGTH} characters on one line`, () => {
    expect(problemsOf({ audience: 'a'.repeat(AUDIENCE_MAX_LENGTH) })).toEqual([])
    expect(problemsOf({ audience: 'a'.repeat(AUDIENCE_MAX_LENGTH + 1) })).toEqual([
      { field: 'audience', message: `Audience: at most 2000 characters (this one has 2001); leave it empty to send the query URL.` },
    ])
    expect(problemsOf({ audience: 'https://a/\nhttps://b/' })).toEqual([
      { field: 'audience', message: 'Audience: one line of text, without control characters (a pasted line break, a tab).' },
    ])
  })

  it('asks for the part of a template URL still to be filled in (a preset), which a URL parser would take as it is', () => {
    expect(checkHttpUrl('https://rest.sparque.ai/<workspace>/').ok).toBe(true)
    expect(problemsOf({ queryUrl: 'https://rest.sparque.ai/<workspace>/' })).toEqual([
      { field: 'queryUrl', message: 'Query URL: replace <workspace> with your own value.' },
    ])
    expect(problemsOf({ queryUrl: 'https://rest.sparque.ai/acme/' })).toEqual([])
  })

  it('names every problem at once, in field order', () => {
    const problems = problemsOf({ name: ' ', authUrl: 'ftp://x', queryUrl: 'nope', version: 'v2', workspace: '', deadlineSeconds: 0 })
    expect(problems.map((problem) => problem.field)).toEqual(['name', 'authUrl', 'queryUrl', 'version', 'workspace', 'deadlineSeconds'])
    expect(problems.map((problem) => problem.message)).toEqual([
      'Name: give the connection a name.',
      'Auth URL: The URL must start with http:// or https:// (got ftp:).',
      'Query URL: "nope" is not a valid URL.',
      'Version: a number such as 4 (or leave it empty), not "v2".',
      'Workspace: enter the workspace name.',
      'Request deadline: a whole number of seconds from 1 to 600 (or leave it empty for 60), not 0.',
    ])
  })

  it('has the sentence for a client secret without a client ID', () => {
    expect(SECRET_NEEDS_CLIENT_ID).toEqual({ field: 'clientId', message: 'Client ID: a client secret needs the client ID it belongs to.' })
  })
})

describe('src/shared/connections', () => {
  it('imports only shared modules and zod, and no Node or DOM API', () => {
    const source = readFileSync(join(__dirname, '../../src/shared/connections/connection-rules.ts'), 'utf8')
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!)
    expect(imports.filter((name) => !/^(\.\/|\.\.\/[a-z-/]+$|zod$)/.test(name))).toEqual([])
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''")
    expect(code.match(/\b(process|Buffer|require|window|document|navigator|localStorage|setTimeout|fetch)\b/)).toBeNull()
  })
})
