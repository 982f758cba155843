import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COPY_AS_KINDS, SECRET_VARIABLE, copyAsText } from '../../src/shared/copy-as/copy-as'
import type { QueryRequest } from '../../src/shared/query/model'
import { WORKSPACE_FORMAT, WORKSPACE_VERSION, type Workspace } from '../../src/shared/workspace/workspace-file'
import { startRealDeployment, type RealDeployment } from '../fixtures/real-deployment'
import { cli, cliInProcess, cliServing, WORLD, type Run } from './spawn-cli'

/**
 * `query-explorer copy-as <kind> <workspace.qxw.json> --query NAME`: the
 * window's "Copy as" text for a saved query (the same function writes both),
 * which runs as printed against a real deployment, and against the embedded
 * demo the command serves for a Demo connection; a connection that fails is
 * said to be one; bad input names the argument and the rule.
 */

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'qe-copy-as-cli-'))
let deployment: RealDeployment
let file: string

const REQUEST: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [
    { endpoint: 'search', parameters: { query: 'san' } },
    { endpoint: 'country:FILTER', parameters: { value: 'ES' } },
  ],
  responseType: 'results',
  options: { count: 3, extra: { dev_version: 'master' } },
}

beforeAll(async () => {
  deployment = await startRealDeployment()
  const workspace: Workspace = {
    format: WORKSPACE_FORMAT,
    version: WORKSPACE_VERSION,
    connections: [
      {
        id: 'cloud',
        name: 'Cloud',
        authUrl: deployment.authUrl,
        queryUrl: deployment.queryUrl,
        version: '4',
        workspace: 'world',
        api: 'places',
        clientId: deployment.service.account.clientId,
        tokenRequest: 'oauth',
      },
      { id: 'elsewhere', name: 'Elsewhere', authUrl: 'https://auth.example.org', queryUrl: 'https://query.example.org/', workspace: 'world', api: 'places', clientId: '' },
    ],
    queries: [{ name: 'Spanish "san" cities', connection: 'cloud', notes: '', request: REQUEST }],
  }
  file = join(dir, 'cloud.qxw.json')
  writeFileSync(file, JSON.stringify(workspace, null, 2))
})
afterAll(async () => {
  await deployment?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('query-explorer copy-as', () => {
  it("prints for every kind exactly the text the window's Copy as menu gives, and no secret", async () => {
    const workspace = JSON.parse(readFileSync(file, 'utf8')) as Workspace
    for (const kind of COPY_AS_KINDS) {
      const printed = await cliInProcess(['copy-as', kind, file, '--query', 'Spanish "san" cities'], { env: { [SECRET_VARIABLE]: 'canary-secret-4711' } })
      expect(printed.status, printed.stderr).toBe(0)
      expect(printed.stdout).toBe(copyAsText(kind, workspace.connections[0]!, REQUEST).replace(/\n?$/, '\n'))
      expect(printed.stdout).not.toContain('canary-secret-4711')
    }
    const other = await cliInProcess(['copy-as', 'url', file, '--query', 'Spanish "san" cities', '--connection', 'Elsewhere'])
    expect(other.stdout).toBe('https://query.example.org/world/api/places/e/search/p/query/san/e/country:FILTER/p/value/ES/results?config=default&count=3&dev_version=master\n')
  })

  it('prints curl that runs as printed against a real deployment: a token for its exact audience, then the rows', async () => {
    const printed = await cli(['copy-as', 'curl', file, '--query', 'Spanish "san" cities'])
    expect(printed.status, printed.stderr).toBe(0)
    const before = deployment.requests.length
    const { stdout } = await run('bash', ['-c', printed.stdout], { env: { PATH: process.env.PATH ?? '', [SECRET_VARIABLE]: deployment.service.account.clientSecret } })
    const answer = JSON.parse(stdout) as { items: Array<{ tuple: Array<{ attributes: { country: string } }> }> }
    expect(answer.items).toHaveLength(3)
    expect(answer.items.every((item) => JSON.stringify(item.tuple).includes('"ES"'))).toBe(true)
    const seen = deployment.requests.slice(before)
    expect(seen.map((entry) => [entry.host, entry.status, entry.audience ?? null, entry.dropped ?? null])).toEqual([
      ['auth', 200, deployment.queryUrl, null],
      ['query', 200, null, ['dev_version=master']],
    ])
  })

  it("on the app's Demo, serves the embedded demo as test and eval run on it, and the curl it prints answers from it with nothing set", async () => {
    const ready = (run: Run) => /\nfi\n$/.test(run.stdout) && / runs at http:\/\/127\.0\.0\.1:\d+ for the code above /.test(run.stderr)
    const serving = await cliServing(['copy-as', 'curl', WORLD, '--query', 'Big Spanish cities'], ready)
    try {
      expect(serving.printed.status, serving.printed.stderr).toBeNull()
      const origin = /runs at (http:\/\/127\.0\.0\.1:\d+)/.exec(serving.printed.stderr)![1]!
      expect(serving.printed.stdout).toContain(`${origin}/query/world/api/places/`)
      expect(serving.printed.stdout).not.toContain('127.0.0.1:8080')
      const { stdout } = await run('bash', ['-c', serving.printed.stdout], { env: { PATH: process.env.PATH ?? '' } })
      const answer = JSON.parse(stdout) as { items?: Array<{ tuple: unknown[] }> }
      expect(answer.items?.length ?? 0, stdout.slice(0, 500)).toBeGreaterThan(0)
      expect(answer.items!.every((item) => JSON.stringify(item.tuple).includes('"ES"'))).toBe(true)
    } finally {
      const end = await serving.stop()
      expect(end.status, end.stderr).toBe(0)
    }
  })

  it("on the app's Demo, the demo takes the secret set for the code, so the text that reads it runs as printed", async () => {
    const env = { [SECRET_VARIABLE]: 'my-demo-secret' }
    const ready = (run: Run) => /\nfi\n$/.test(run.stdout) && / for the code above /.test(run.stderr)
    const serving = await cliServing(['copy-as', 'curl', WORLD, '--query', 'Big Spanish cities'], ready, env)
    try {
      expect(serving.printed.stdout).not.toContain('my-demo-secret')
      expect(serving.printed.stdout).toContain(`$${SECRET_VARIABLE}`)
      const { stdout } = await run('bash', ['-c', serving.printed.stdout], { env: { PATH: process.env.PATH ?? '', ...env } })
      expect((JSON.parse(stdout) as { items?: unknown[] }).items?.length ?? 0, stdout.slice(0, 500)).toBeGreaterThan(0)
      const wrong = await run('bash', ['-c', serving.printed.stdout], { env: { PATH: process.env.PATH ?? '', [SECRET_VARIABLE]: 'another' } }).then(
        () => null,
        (error: { stderr: string }) => error,
      )
      expect(wrong?.stderr).toMatch(/No token came back from http:\/\/127\.0\.0\.1:\d+\/auth\/api\/auth: check the client ID and the secret/)
    } finally {
      await serving.stop()
    }
  })

  it("on the app's Demo, TypeScript and Python without the secret variable say how to run them, and start nothing", async () => {
    for (const kind of ['typescript', 'python']) {
      const refused = await cli(['copy-as', kind, WORLD, '--query', 'Big Spanish cities'])
      expect(refused.status).toBe(2)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toContain(`${SECRET_VARIABLE}: the ${kind} code reads the client secret from it, and "Demo" is the embedded demo`)
      expect(refused.stderr).toContain(`${SECRET_VARIABLE}=my-demo-secret query-explorer copy-as ${kind}`)
    }
  })

  it('curl on a closed port says the connection failed, naming the host, not that the client ID or secret is wrong', async () => {
    const port = await closedPort()
    const closed: Workspace = {
      format: WORKSPACE_FORMAT,
      version: WORKSPACE_VERSION,
      connections: ['json', 'oauth'].map((tokenRequest) => ({
        id: tokenRequest,
        name: `Closed ${tokenRequest}`,
        authUrl: `http://127.0.0.1:${port}/auth`,
        queryUrl: `http://127.0.0.1:${port}/query`,
        workspace: 'world',
        api: 'places',
        clientId: 'team',
        tokenRequest: tokenRequest as 'json' | 'oauth',
      })),
      queries: [{ name: 'San', connection: 'json', notes: '', request: REQUEST }],
    }
    const path = join(dir, 'closed.qxw.json')
    writeFileSync(path, JSON.stringify(closed))
    for (const connection of ['json', 'oauth']) {
      const printed = await cli(['copy-as', 'curl', path, '--query', 'San', '--connection', connection])
      expect(printed.status, printed.stderr).toBe(0)
      const failed = await run('bash', ['-c', printed.stdout], { env: { PATH: process.env.PATH ?? '', [SECRET_VARIABLE]: 'a-secret' } }).then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      )
      expect(failed?.code).not.toBe(0)
      expect(failed?.stdout).toBe('')
      expect(failed?.stderr).toContain(`Could not connect to http://127.0.0.1:${port} for a token (curl's own error is above): a connection failure, not a matter of the client ID or secret.`)
      expect(failed?.stderr).not.toContain('check the client ID')
    }
  })

  it('names the argument and the rule for each bad input, with exit status 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['copy-as', 'java', file, '--query', 'x'], /^<kind>: "java" is not one of curl, typescript, python, url\.$/m],
      [['copy-as', 'url', join(dir, 'missing.qxw.json'), '--query', 'x'], /^<workspace\.qxw\.json>: "missing\.qxw\.json" was not found\.$/m],
      [['copy-as', 'url', file], /^--query: the name of a saved query is required \(queries of cloud\.qxw\.json: "Spanish \\"san\\" cities"\)\.$/m],
      [['copy-as', 'url', file, '--query', 'Nope'], /^--query: cloud\.qxw\.json has no saved query named "Nope" \(its queries: "Spanish \\"san\\" cities"\)\.$/m],
      [['copy-as', 'url', file, '--query', 'Spanish "san" cities', '--connection', 'staging'], /^--connection: cloud\.qxw\.json has no connection with the id or name "staging" \(its connection ids: "cloud", "elsewhere"\)\.$/m],
      [['copy-as', 'url', file, WORLD, '--query', 'x'], /copy-as/],
    ]
    for (const [args, message] of cases) {
      const result = await cliInProcess(args)
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(message)
    }
  })

  it('is listed in the help', async () => {
    const help = await cli(['--help'])
    expect(help.stdout).toMatch(/^ {2}copy-as +print a saved query as curl, TypeScript or Python code/m)
  })
})

/** A port nothing listens on: one the system just gave out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolvePort(port))
    })
  })
}
