import type { QueryRequest } from '../query/model'
import { copyPlan, SECRET_VARIABLE, type CopyAsConnection } from './copy-plan'
import { shellWord } from './literals'

/**
 * "Copy as curl": the token request the connection makes, then the request's
 * exact URL with that token, for bash and a POSIX userland. The secret stays
 * in the environment: it reaches curl through an argument the shell expands.
 * When no token comes back the query is not sent: the text says why on
 * stderr (a connection that failed, or an answer without a token) and ends
 * with a non-zero status (with `false`, not `exit`, so that pasting it into
 * a terminal does not close the terminal).
 */

/**
 * The token reply's `access_token` (both token routes answer with it), read
 * with sed so the text needs nothing beyond curl and a POSIX userland.
 */
const EXTRACT_TOKEN = `sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p'`

/** The Demo's secret, written into the text by the main process alone (copy-as:demo-with-secret): it changes every start and reaches nothing but this machine. */
export interface FilledSecret {
  secret: string
}

export function curlText(connection: CopyAsConnection, request: QueryRequest, filled?: FilledSecret): string {
  const plan = copyPlan(connection, request)
  const token = plan.token
  if (token.kind === 'none') return `curl -s ${shellWord(plan.url)}\n`
  const lines = filled
    ? [
        `# The Demo's client secret, filled in: it changes every time Query Explorer starts, and the Demo it opens runs on this machine only.`,
        `${SECRET_VARIABLE}=${shellWord(filled.secret)}`,
      ]
    : [
        `# The client secret is read from ${SECRET_VARIABLE} in the environment; it is never written here.`,
        `: "\${${SECRET_VARIABLE}:?Set ${SECRET_VARIABLE} to the client secret first}"`,
      ]
  let tokenUrl: string
  if (token.kind === 'oauth') {
    tokenUrl = `${token.authUrl}/oauth/token`
    lines.push(
      `TOKEN_REPLY=$(curl -sS -X POST ${shellWord(tokenUrl)} \\`,
      `  --data-urlencode 'grant_type=client_credentials' \\`,
      `  --data-urlencode ${shellWord(`client_id=${token.clientId}`)} \\`,
      `  --data-urlencode "client_secret=$${SECRET_VARIABLE}" \\`,
      `  --data-urlencode ${shellWord(`audience=${token.audience}`)})`,
    )
  } else {
    tokenUrl = `${token.authUrl}/api/auth`
    // The secret goes through printf's argument, not the format, so a `%` or `\` in it stays as it is; only `"` and `\` need JSON escaping.
    const before = JSON.stringify({ WorkspaceName: token.workspace, ClientId: token.clientId }).slice(0, -1)
    lines.push(
      `SECRET_JSON=$(printf '%s' "$${SECRET_VARIABLE}" | sed 's/[\\\\"]/\\\\&/g')`,
      `TOKEN_REPLY=$(printf '%s"ClientSecret":"%s","ForceReauth":false}' ${shellWord(before + ',')} "$SECRET_JSON" \\`,
      `  | curl -sS -X POST ${shellWord(tokenUrl)} -H 'Content-Type: application/json-patch+json' -H 'Accept: */*' --data-binary @-)`,
    )
  }
  // curl's status says whether anything answered (without --fail an HTTP error is status 0): a refused, closed or
  // unresolved connection is not a matter of the client ID or secret, and must not read as one.
  const host = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(tokenUrl)?.[0] ?? tokenUrl
  const running = filled ? "Is the Demo still running (Query Explorer, or the query-explorer copy-as command that printed this)?" : 'Is the auth server running, and is the auth URL right?'
  const unreachable = `Could not connect to ${host} for a token (curl's own error is above): a connection failure, not a matter of the client ID or secret. ${running}`
  const why = `No token came back from ${tokenUrl}: check the client ID and ${filled ? "that Query Explorer is still running (the Demo's secret changes every start)" : `the secret in ${SECRET_VARIABLE}`}. The auth server answered:`
  lines.push(
    `TOKEN_STATUS=$?`,
    `TOKEN=$(printf '%s' "$TOKEN_REPLY" | ${EXTRACT_TOKEN})`,
    `if [ "$TOKEN_STATUS" -ne 0 ]; then`,
    `  printf '%s\\n' ${shellWord(unreachable)} >&2`,
    `  false`,
    `elif [ -z "$TOKEN" ]; then`,
    `  printf '%s\\n' ${shellWord(why)} "$TOKEN_REPLY" >&2`,
    `  false`,
    `else`,
    `  curl -s -H "Authorization: Bearer $TOKEN" ${shellWord(plan.url)}`,
    `fi`,
  )
  return lines.join('\n') + '\n'
}
