import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { COPY_AS_KINDS, SECRET_VARIABLE, copyAsText, curlText, isCopyAsKind, type CopyAsKind } from '../../shared/copy-as/copy-as'
import type { QueryRequest } from '../../shared/query/model'
import { validateRequest } from '../../shared/query/validate'
import type { Workspace, WorkspaceConnection } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command } from '../command'
import { startEmbeddedDemo, usesDemo } from '../embedded-demo'
import type { CliIo } from '../io'
import { withFlags } from '../flags'
import { writeLines } from '../terminal-io'
import { untilStopped } from '../until-stopped'
import { readWorkspaceArgument } from './workspace-arguments'

const quoted = (names: readonly string[]) => (names.length === 0 ? 'it has none' : names.map((name) => JSON.stringify(name)).join(', '))

function chosenConnection(workspace: Workspace, fileName: string, wanted: string, flag: boolean): WorkspaceConnection {
  const found = workspace.connections.find((connection) => connection.id === wanted) ?? (flag ? workspace.connections.find((connection) => connection.name === wanted) : undefined)
  if (found) return found
  const known = quoted(workspace.connections.map((connection) => connection.id))
  if (flag) throw new InputError([`--connection: ${fileName} has no connection with the id or name "${wanted}" (its connection ids: ${known}).`])
  throw new InputError([`--query: the query's connection "${wanted}" is not among the connections of ${fileName} (${known}); name one with --connection.`])
}

/**
 * On the app's Demo (the connection `test` and `eval` run on the embedded
 * demo for, decided by the same rule), the code would aim at a port nothing
 * serves: the command starts the demo the way they do, prints the code
 * aimed at it, and serves it until stopped. The demo account takes the
 * secret the code will read (QUERY_EXPLORER_CLIENT_SECRET); without one,
 * curl gets the demo's own secret filled in, as the window's "curl, with
 * the Demo's secret" does, and TypeScript or Python, which have no such
 * text, are refused with how to run them. Nothing else is ever served or
 * filled in.
 */
async function printForDemo(kind: Exclude<CopyAsKind, 'url'>, connection: WorkspaceConnection, request: QueryRequest, io: CliIo): Promise<number> {
  const chosen = (io.env ?? process.env)[SECRET_VARIABLE] || undefined
  if (chosen === undefined && kind !== 'curl') {
    throw new InputError([
      `${SECRET_VARIABLE}: the ${kind} code reads the client secret from it, and "${connection.name}" is the embedded demo, which this command starts and which takes the secret you set.`,
      `Set it to a secret of your choosing for this command and for the code, e.g. ${SECRET_VARIABLE}=my-demo-secret query-explorer copy-as ${kind} … (or ask for curl, which gets the demo's secret filled in).`,
    ])
  }
  const demo = await startEmbeddedDemo(connection, chosen)
  try {
    writeLines(io.out, chosen === undefined ? curlText(demo.connection, request, { secret: demo.secret }) : copyAsText(kind, demo.connection, request))
  } catch (error) {
    await demo.service.close()
    throw error
  }
  const origin = new URL(demo.service.queryUrl).origin
  io.err(`"${connection.name}" is the embedded demo: it runs at ${origin} for the code above until this command stops (Ctrl-C).`)
  return untilStopped(() => demo.service.close())
}

/**
 * `copy-as <kind> <workspace.qxw.json> --query NAME`: a saved query as the
 * text the window's "Copy as" menu gives (the same function writes both),
 * on the query's own connection or the one named. Nothing is sent and no
 * secret is read, but on the Demo (printForDemo).
 */
export const copyAsCommand: Command = {
  name: 'copy-as',
  summary: 'print a saved query as curl, TypeScript or Python code for the official clients, or as its URL',
  usage: `<${COPY_AS_KINDS.join('|')}> <workspace.qxw.json> --query NAME [--connection ID]`,
  ...withFlags([
    '<kind>                 curl (bash), typescript (@spinque/query-api), python (spinque_query_api) or url',
    '<workspace.qxw.json>   the workspace file holding the saved query',
    {
      query: { type: 'string', value: 'NAME', help: 'the saved query, by its name' },
      connection: { type: 'string', value: 'ID', help: "one of the file's connections, by id or name (default: the query's own)" },
    },
    `The code reads the client secret from ${SECRET_VARIABLE} when it runs; it holds none.`,
    "On the app's Demo (client ID demo, workspace world, 127.0.0.1 URLs) the code would aim at a port",
    'nothing serves: the command starts the embedded demo, prints the code aimed at it and serves it until',
    `stopped (Ctrl-C). The demo takes the secret in ${SECRET_VARIABLE}; without it, curl gets the demo's`,
    'own secret filled in, and typescript and python ask for the variable. url prints the address as written.',
    'Exit status: 0 printed (or served and stopped), 2 bad input (kind, file, query, connection).',
  ]),
  positionals: { min: 2, max: 2 },
  async run({ positionals, values }, io) {
    const [kind, path] = positionals as [string, string]
    if (!isCopyAsKind(kind)) throw new InputError([`<kind>: "${kind}" is not one of ${COPY_AS_KINDS.join(', ')}.`])
    const { workspace, fileName } = await readWorkspaceArgument(path, readWorkspaceFile).catch((error: unknown) => {
      throw error instanceof InputError ? new InputError(error.lines.map((line) => `<workspace.qxw.json>: ${line}`)) : error
    })
    const names = workspace.queries.map((query) => query.name)
    const name = stringOption(values, 'query')
    if (name === undefined) throw new InputError([`--query: the name of a saved query is required (queries of ${fileName}: ${quoted(names)}).`])
    const saved = workspace.queries.find((query) => query.name === name)
    if (!saved) throw new InputError([`--query: ${fileName} has no saved query named "${name}" (its queries: ${quoted(names)}).`])
    const wanted = stringOption(values, 'connection')
    const connection = chosenConnection(workspace, fileName, wanted ?? saved.connection, wanted !== undefined)
    const problems = validateRequest(saved.request)
    if (problems.length > 0) throw new InputError(problems.map((problem) => `"${name}", ${problem.field}: ${problem.message}`))
    if (kind !== 'url' && usesDemo(connection)) return printForDemo(kind, connection, saved.request, io)
    writeLines(io.out, copyAsText(kind, connection, saved.request))
    return EXIT_OK
  },
}
