import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { SECRET_VARIABLE } from '../../src/shared/copy-as/copy-plan'
import { typeScriptText } from '../../src/shared/copy-as/typescript-text'
import type { QueryRequest } from '../../src/shared/query/model'
import { HOSTILE, connection, request, sent } from '../fixtures/copy-as'

/**
 * "Copy as TypeScript": a program for the official client. Who asks the
 * token (the client, or the program's own requestToken()), whether the
 * client writes the request or api.fetchUrl sends its exact URL, and that
 * every value stays inside its literal (the text parses as TypeScript).
 * test/conformance runs these programs against real services.
 */

/** A request the client can write itself: no context step. */
const plain: QueryRequest = { ...request, steps: [{ endpoint: 'search', parameters: { query: 'san' } }] }

/** The syntax errors TypeScript finds in the text. */
const syntaxErrors = (text: string) => ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } }).diagnostics ?? []

describe('TypeScript text', () => {
  it('carries the chain and options as string literals that keep hostile text inside', () => {
    const hostileRequest: QueryRequest = { ...request, steps: [{ endpoint: 'search', parameters: { query: HOSTILE } }] }
    const text = typeScriptText(connection, hostileRequest)
    expect(text).toContain(`import { Api, RequestType, type Query } from '@spinque/query-api'`)
    expect(text).toContain(`const clientSecret = process.env.${SECRET_VARIABLE}`)
    expect(text).toContain(`{ endpoint: "search", parameters: { "query": ${JSON.stringify(HOSTILE)} } }`)
    expect(text).toContain('count: 20, offset: 40')
    expect(text.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
    expect(syntaxErrors(text)).toEqual([])
  })

  it('a public API (no client ID) gets no authentication and no secret', () => {
    const text = typeScriptText({ ...connection, clientId: '' }, request)
    expect(text).not.toContain('authentication')
    expect(text).not.toContain(SECRET_VARIABLE)
  })

  it('OAuth whose audience is the base URL: the client asks the token itself', () => {
    const text = typeScriptText({ ...connection, tokenRequest: 'oauth' }, plain)
    expect(text).toContain(`      authServer: "https://auth.example.org",`)
    expect(text).toContain(`    baseUrl: "https://query.example.org/rest",`)
    expect(text).not.toContain('requestToken')
    expect(text).toContain(`  const answer = await api.fetch(queries, { count: 20, offset: 40 }, RequestType.Results)`)
    expect(syntaxErrors(text)).toEqual([])
  })

  it('another audience, or the JSON token route: the program asks the token and passes it in requestInit', () => {
    const oauth = typeScriptText({ ...connection, tokenRequest: 'oauth', audience: 'urn:places' }, plain)
    expect(oauth).toContain(`  const response = await fetch("https://auth.example.org/oauth/token", {`)
    expect(oauth).toContain(`audience: "urn:places" }),`)
    expect(oauth).not.toContain('authServer')
    expect(oauth).toContain(`RequestType.Results, requestInit)`)
    const json = typeScriptText(connection, plain)
    expect(json).toContain(`  const response = await fetch("https://auth.example.org/api/auth", {`)
    expect(json).toContain(`WorkspaceName: "world", ClientId: "client-42", ClientSecret: clientSecret`)
    expect(syntaxErrors(oauth)).toEqual([])
    expect(syntaxErrors(json)).toEqual([])
  })

  it('a request the client cannot write (a context step) is sent to its exact URL with fetchUrl, the reason in a comment', () => {
    const text = typeScriptText(connection, request)
    expect(text).toContain(`import { Api } from '@spinque/query-api'`)
    expect(text).toContain('  // The client cannot write this request itself: its queries have no place for context steps (/c/<name>/<value>).')
    expect(text).toContain(`  const answer = await api.fetchUrl(${JSON.stringify(sent(connection.queryUrl, request))}, requestInit)`)
  })

  it('a __proto__ parameter is a computed key, numeric options stay numbers, other values strings, and the request type is named', () => {
    const text = typeScriptText({ ...connection, clientId: '' }, {
      ...plain,
      responseType: 'results,count',
      steps: [{ endpoint: 'search', parameters: JSON.parse('{"__proto__":"x"}') as Record<string, string> }],
      options: { count: 5, extra: { mode: 'fast', n: '7', flag: 'true', pad: '07' } },
    })
    expect(text).toContain(`    { endpoint: "search", parameters: { ["__proto__"]: "x" } },`)
    expect(text).toContain(`api.fetch(queries, { count: 5, mode: "fast", n: 7, flag: true, pad: "07" }, RequestType.ResultsAndCount)`)
  })
})
