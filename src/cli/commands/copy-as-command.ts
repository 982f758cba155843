import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { COPY_AS_KINDS, SECRET_VARIABLE, copyAsText, isCopyAsKind } from '../../shared/copy-as/copy-as'
import { validateRequest } from '../../shared/query/validate'
import type { Workspace, WorkspaceConnection } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command } from '../command'
import { writeLines } from '../terminal-io'
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
 * `copy-as <kind> <workspace.qxw.json> --query NAME`: a saved query as the
 * text the window's "Copy as" menu gives (the same function writes both),
 * on the query's own connection or the one named. Prints code only: nothing
 * is sent, and no secret is read.
 */
export const copyAsCommand: Command = {
  name: 'copy-as',
  summary: 'print a saved query as curl, TypeScript or Python code for the official clients, or as its URL',
  usage: `<${COPY_AS_KINDS.join('|')}> <workspace.qxw.json> --query NAME [--connection ID]`,
  details: [
    '<kind>                 curl (bash), typescript (@spinque/query-api), python (spinque_query_api) or url',
    '<workspace.qxw.json>   the workspace file holding the saved query',
    '--query NAME           the saved query, by its name',
    "--connection ID        one of the file's connections, by id or name (default: the query's own)",
    `The code reads the client secret from ${SECRET_VARIABLE} when it runs; it holds none.`,
    'Exit status: 0 printed, 2 bad input (kind, file, query, connection).',
  ],
  options: {
    query: { type: 'string' },
    connection: { type: 'string' },
  },
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
    writeLines(io.out, copyAsText(kind, connection, saved.request))
    return EXIT_OK
  },
}
