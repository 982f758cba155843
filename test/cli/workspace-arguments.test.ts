import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { concurrencyOf, connectionFlags, maxWaitOf, readWorkspaceArgument } from '../../src/cli/commands/workspace-arguments'
import { readWorkspaceFile } from '../../src/main/workspaces/workspace-files'
import { WORLD } from './spawn-cli'
import { inputErrorLines } from '../fixtures/input-error'
import { useTempDirs, useTempFiles } from '../fixtures/temp-dirs'

/** The flags `test`, `compare` and `eval` share (which connection, what to override, how long to wait, how many at once) and the workspace file argument. */

const tempDir = useTempDirs('qe-cli-workspace-arguments')
const file = useTempFiles('qe-cli-workspace-arguments')

describe('connectionFlags', () => {
  it('reads the connection, its overrides and the pinned origins, in the form URL.origin writes them', () => {
    const flags = connectionFlags({
      connection: 'Staging',
      'auth-url': 'https://auth.example.com/auth',
      'query-url': 'https://q.example.com/query',
      workspace: 'world',
      'client-id': 'ci-runner',
      demo: true,
      'auth-url-must-match': 'HTTPS://Auth.Example.com:443/',
      'query-url-must-match': 'https://q.example.com:8443/any/path',
    })
    expect(flags).toEqual({
      connection: 'Staging',
      authUrl: 'https://auth.example.com/auth',
      queryUrl: 'https://q.example.com/query',
      workspace: 'world',
      clientId: 'ci-runner',
      demo: true,
      authOrigin: 'https://auth.example.com',
      queryOrigin: 'https://q.example.com:8443',
    })
  })

  it('leaves every field out when no flag is given (demo too: the connection decides)', () => {
    expect(Object.values(connectionFlags({})).every((value) => value === undefined)).toBe(true)
  })

  it('refuses a pinned origin that is not http(s), naming the flag', () => {
    expect(inputErrorLines(() => connectionFlags({ 'auth-url-must-match': 'auth.example.com' }))).toEqual(['--auth-url-must-match: "auth.example.com" is not an http(s) origin such as https://auth.example.com.'])
    expect(inputErrorLines(() => connectionFlags({ 'query-url-must-match': 'ftp://q.example.com' }))).toEqual(['--query-url-must-match: "ftp://q.example.com" is not an http(s) origin such as https://auth.example.com.'])
  })
})

describe('maxWaitOf', () => {
  it('is an hour when not given, and takes whole seconds from 0 (never wait) to a day', () => {
    expect(maxWaitOf({})).toBe(3600)
    expect(maxWaitOf({ 'max-wait': '0' })).toBe(0)
    expect(maxWaitOf({ 'max-wait': '86400' })).toBe(86_400)
  })

  it('refuses more than a day, a fraction, a sign or words', () => {
    for (const text of ['86401', '1.5', '-1', ' 5', 'soon']) {
      expect(inputErrorLines(() => maxWaitOf({ 'max-wait': text }))).toEqual([`--max-wait: "${text}" is not a whole number of seconds from 0 to 86400.`])
    }
  })
})

describe('concurrencyOf', () => {
  it('is the fallback when not given, and takes a whole number from 1 to the maximum', () => {
    expect(concurrencyOf({}, 4, 16)).toBe(4)
    expect(concurrencyOf({ concurrency: '1' }, 4, 16)).toBe(1)
    expect(concurrencyOf({ concurrency: '16' }, 4, 16)).toBe(16)
  })

  it('refuses 0, past the maximum, a fraction or words, naming the maximum', () => {
    for (const text of ['0', '17', '2.5', 'many']) expect(inputErrorLines(() => concurrencyOf({ concurrency: text }, 4, 16))).toEqual([`--concurrency: "${text}" is not a whole number from 1 to 16.`])
    expect(inputErrorLines(() => concurrencyOf({ concurrency: '9' }, 2, 8))).toEqual(['--concurrency: "9" is not a whole number from 1 to 8.'])
  })
})

describe('readWorkspaceArgument', () => {
  it("gives the file's workspace and its name without the folder", async () => {
    const { workspace, fileName } = await readWorkspaceArgument(WORLD, readWorkspaceFile)
    expect(fileName).toBe('world.qxw.json')
    expect(workspace.connections.length).toBeGreaterThan(0)
  })

  it("refuses a missing or invalid file as bad input with the reader's sentence", async () => {
    const bad = file('bad.qxw.json', '{"format": "something else"}')
    await expect(readWorkspaceArgument(bad, readWorkspaceFile)).rejects.toMatchObject({ name: 'InputError', lines: ['"bad.qxw.json" is not a Query Explorer workspace: its "format" is "something else", expected "query-explorer-workspace".'] })
    await expect(readWorkspaceArgument(join(tempDir(), 'missing.qxw.json'), readWorkspaceFile)).rejects.toMatchObject({ name: 'InputError', lines: ['"missing.qxw.json" was not found.'] })
  })
})
