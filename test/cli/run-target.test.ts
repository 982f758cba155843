import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError } from '../../src/cli/command'
import { chooseConnection, connectionSecretVariable, openRunTarget, overridesOf, pinnedOrigin, SECRET_VARIABLE, warmedUp } from '../../src/cli/run-target'
import type { RunningService } from '../../src/service'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { createRedactor } from '../../src/shared/security/redaction'
import type { Workspace, WorkspaceConnection } from '../../src/shared/workspace/workspace-file'
import { ManualClock } from '../fixtures/manual-clock'
import { search, startServer, type TestServer } from '../main/support'
import { inputErrorLines } from '../fixtures/input-error'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'
import { startWorldService } from '../fixtures/world-service'

/**
 * Where a command's queries go: a connection of the workspace file, flags
 * overriding its fields, the secret from the environment (never a flag), the
 * app's runner and token manager; the embedded demo in this process for the
 * app's Demo. Over real services on 127.0.0.1. (test-command.test.ts runs
 * the same through `query-explorer test`, with the app's keychain.)
 */

/** No saved connection of this machine may lend its secret. */
const NO_APP_DATA = { QUERY_EXPLORER_DATA_DIR: join(tmpdir(), 'qe-cli-no-app-data') }

const DEMO = FILE_DEMO_CONNECTION

function workspaceOf(...connections: WorkspaceConnection[]): Workspace {
  return { format: 'query-explorer-workspace', version: 1, connections, queries: [], tests: [] } as unknown as Workspace
}

describe('connectionSecretVariable', () => {
  it("is QUERY_EXPLORER_SECRET_ and the connection's name in capitals, other characters as one _", () => {
    expect(connectionSecretVariable('Staging EU')).toBe('QUERY_EXPLORER_SECRET_STAGING_EU')
    expect(connectionSecretVariable('prod-2 (eu/west)')).toBe('QUERY_EXPLORER_SECRET_PROD_2_EU_WEST')
    expect(connectionSecretVariable('  café ')).toBe('QUERY_EXPLORER_SECRET_CAF')
  })
})

describe('chooseConnection', () => {
  const staging = { ...DEMO, id: 'stg', name: 'Staging' }
  const workspace = workspaceOf(DEMO, staging)

  it("is the file's first connection when none is named, else the one named by its name or its id", () => {
    expect(chooseConnection(workspace, undefined, 'w.qxw.json')).toBe(DEMO)
    expect(chooseConnection(workspace, 'Staging', 'w.qxw.json')).toBe(staging)
    expect(chooseConnection(workspace, 'stg', 'w.qxw.json')).toBe(staging)
  })

  it('refuses a name the file lacks, listing those it has, and a file with no connection', () => {
    expect(inputErrorLines(() => chooseConnection(workspace, 'Prod', 'w.qxw.json'))).toEqual(['--connection: "Prod" is not a connection of w.qxw.json (it has: "Demo", "Staging").'])
    expect(inputErrorLines(() => chooseConnection(workspaceOf(), undefined, 'empty.qxw.json'))).toEqual(['empty.qxw.json: the workspace has no connection to run on.'])
  })
})

describe('pinnedOrigin and overridesOf', () => {
  it('reads a pinned origin as URL.origin writes it; nothing when not given; refuses what is not http(s)', () => {
    expect(pinnedOrigin('--auth-url-must-match', undefined)).toBeUndefined()
    expect(pinnedOrigin('--auth-url-must-match', 'HTTPS://Auth.Example.com:443/path?q')).toBe('https://auth.example.com')
    expect(inputErrorLines(() => pinnedOrigin('--query-url-must-match', 'q.example.com'))).toEqual(['--query-url-must-match: "q.example.com" is not an http(s) origin such as https://auth.example.com.'])
  })

  it('takes the configuration and API from the flags, as given', () => {
    expect(overridesOf({ config: 'production' })).toEqual({ config: 'production', api: undefined })
    expect(overridesOf({ config: 'default', api: 'public' })).toEqual({ config: 'default', api: 'public' })
  })
})

describe('openRunTarget', () => {
  const secret = 'ci-runner-secret-for-run-target'
  let remote: RunningService
  let staging: WorkspaceConnection
  beforeAll(async () => {
    remote = await startWorldService('ci-runner', secret)
    staging = { ...DEMO, id: 'stg', name: 'Staging EU', clientId: 'ci-runner', authUrl: remote.authUrl, queryUrl: remote.queryUrl }
  })
  afterAll(() => remote?.close())

  it("runs the app's Demo on the embedded demo, started in this process and stopped by close", async () => {
    const run = await openRunTarget(workspaceOf(DEMO), {}, NO_APP_DATA, 'world.qxw.json')
    let queryUrl = ''
    try {
      expect(run.label).toBe('Demo (the embedded demo service)')
      queryUrl = run.connection.queryUrl
      expect(queryUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/query$/)
      await run.warmUp(() => undefined)
      const reply = await run.runner.run('cli', run.target, search('paris'), { fresh: true })
      expect(reply.status).toBe(200)
    } finally {
      await run.close()
    }
    await expect(fetch(`${queryUrl}/world/api/public`)).rejects.toThrow()
  })

  it('takes the secret from QUERY_EXPLORER_SECRET_<CONNECTION> before QUERY_EXPLORER_CLIENT_SECRET, and hides it and the token from what is printed', async () => {
    const secrets = createRedactor()
    const env = { ...NO_APP_DATA, QUERY_EXPLORER_SECRET_STAGING_EU: secret, [SECRET_VARIABLE]: 'the-wrong-one' }
    const run = await openRunTarget(workspaceOf(staging), {}, env, 'w.qxw.json', undefined, secrets)
    try {
      expect(run.label).toBe('Staging EU')
      await run.warmUp(() => undefined)
      const reply = await run.runner.run('cli', run.target, search('paris'), { fresh: true })
      expect(reply.status).toBe(200)
      expect(secrets.scrub(`secret ${secret}`)).toBe('secret [redacted]')
    } finally {
      await run.close()
    }
  })

  it('overrides the file connection with --auth-url, --query-url and --client-id', async () => {
    const elsewhere = { ...staging, authUrl: 'http://127.0.0.1:9/auth', queryUrl: 'http://127.0.0.1:9/query', clientId: 'someone' }
    const run = await openRunTarget(workspaceOf(elsewhere), { authUrl: remote.authUrl, queryUrl: remote.queryUrl, clientId: 'ci-runner' }, { ...NO_APP_DATA, [SECRET_VARIABLE]: secret }, 'w.qxw.json')
    try {
      expect(run.connection).toMatchObject({ authUrl: remote.authUrl, queryUrl: remote.queryUrl, clientId: 'ci-runner' })
      expect((await run.runner.run('cli', run.target, search('oslo'), { fresh: true })).status).toBe(200)
    } finally {
      await run.close()
    }
  })

  it('refuses a connection without a secret, naming both variables and never asking for a flag', async () => {
    await expect(openRunTarget(workspaceOf(staging), {}, NO_APP_DATA, 'w.qxw.json')).rejects.toMatchObject({
      name: 'InputError',
      lines: [
        'No client secret for the connection "Staging EU": set QUERY_EXPLORER_CLIENT_SECRET or QUERY_EXPLORER_SECRET_STAGING_EU in the environment, or save the connection in the app with its secret (a secret is never read from a flag or a file).',
      ],
    })
  })

  describe('URLs it will not send to', () => {
    let hostile: TestServer
    beforeAll(async () => {
      hostile = await startServer((_req, res) => res.end())
    })
    afterAll(() => hostile?.close())

    it('refuses a URL that is not http(s), and a host other than the pinned origin, before anything is sent', async () => {
      const pointed = { ...staging, authUrl: `${hostile.origin}/auth`, queryUrl: 'query.example.com/query' }
      const env = { ...NO_APP_DATA, [SECRET_VARIABLE]: secret }
      await expect(openRunTarget(workspaceOf(pointed), { authOrigin: 'https://auth.example.com' }, env, 'w.qxw.json')).rejects.toMatchObject({
        lines: [
          `--auth-url-must-match: the connection "Staging EU" points at ${hostile.origin}, not https://auth.example.com; nothing was sent.`,
          '--query-url: "query.example.com/query" is not an http(s) URL.',
        ],
      })
      expect(hostile.seen).toEqual([])
    })
  })

  describe('a 429 on the token request', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 25, 9), { autoAdvance: true })
    let limited: RunningService
    let connection: WorkspaceConnection
    beforeAll(async () => {
      limited = await startWorldService('ci-runner', secret, { quota: 1, clock })
      connection = { ...staging, authUrl: limited.authUrl, queryUrl: limited.queryUrl }
    })
    afterAll(() => limited?.close())

    /** Someone else takes the account's one token request of the hour. */
    async function takeTheQuota(): Promise<void> {
      const reply = await fetch(`${limited.authUrl}/api/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ WorkspaceName: 'world', ClientId: 'ci-runner', ClientSecret: secret, ForceReauth: true }),
      })
      expect(reply.status).toBe(200)
    }

    it('is waited out for its Retry-After on the clock, and said, before the token comes', async () => {
      await takeTheQuota()
      const run = await openRunTarget(workspaceOf(connection), {}, { ...NO_APP_DATA, [SECRET_VARIABLE]: secret }, 'w.qxw.json', clock)
      const said: string[] = []
      try {
        clock.sleeps.length = 0
        await run.warmUp((line) => said.push(line))
        expect(said).toEqual(['The auth host answered 429 (token request quota exceeded): waiting 3600 s, as its Retry-After asks, before trying again.'])
        expect(clock.sleeps).toEqual([3_600_000])
      } finally {
        await run.close()
      }
    })

    it('is not waited out past the most it may wait: a quota error saying so', async () => {
      clock.advance(3_600_000)
      await takeTheQuota()
      const run = await openRunTarget(workspaceOf(connection), {}, { ...NO_APP_DATA, [SECRET_VARIABLE]: secret }, 'w.qxw.json', clock)
      try {
        clock.sleeps.length = 0
        const error = await run.warmUp(() => undefined, 60).catch((caught: unknown) => caught)
        expect(error).toBeInstanceOf(ExplorerError)
        expect(error).toMatchObject({ code: 'quota', message: expect.stringMatching(/That is longer than --max-wait 60 s allows\.$/) })
        expect(clock.sleeps).toEqual([])
      } finally {
        await run.close()
      }
    })
  })
})

describe('warmedUp', () => {
  it("turns the service's or auth server's refusal into bad input naming the connection; a fault of ours stays one", async () => {
    const refusing = {
      connection: { name: 'Prod' },
      warmUp: async () => {
        throw new ExplorerError('auth', 'The auth server answered 401: invalid_client.')
      },
    }
    const refusal = await warmedUp(refusing as never, () => undefined).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(InputError)
    expect((refusal as InputError).lines).toEqual(['Prod: The auth server answered 401: invalid_client.'])
    const broken = {
      connection: { name: 'Prod' },
      warmUp: async () => {
        throw new TypeError('x is undefined')
      },
    }
    await expect(warmedUp(broken as never, () => undefined)).rejects.toThrow(TypeError)
  })
})
