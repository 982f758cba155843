import type { QueryRequest } from '../query/model'
import { copyPlan, SECRET_VARIABLE, type CopyAsConnection } from './copy-plan'
import { shellWord } from './literals'

/**
 * "Copy as curl": the token request the connection makes, then the request's
 * exact URL with that token, for bash and a POSIX userland. The secret stays
 * in the environment: it reaches curl through an argument the shell expands.
 */

/**
 * The token reply's `access_token` (both token routes answer with it), read
 * with sed so the text needs nothing beyond curl and a POSIX userland.
 */
const EXTRACT_TOKEN = `sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p'`

export function curlText(connection: CopyAsConnection, request: QueryRequest): string {
  const plan = copyPlan(connection, request)
  const token = plan.token
  if (token.kind === 'none') return `curl -s ${shellWord(plan.url)}\n`
  const lines = [
    `# The client secret is read from ${SECRET_VARIABLE} in the environment; it is never written here.`,
    `: "\${${SECRET_VARIABLE}:?Set ${SECRET_VARIABLE} to the client secret first}"`,
  ]
  if (token.kind === 'oauth') {
    lines.push(
      `TOKEN=$(curl -s -X POST ${shellWord(`${token.authUrl}/oauth/token`)} \\`,
      `  --data-urlencode 'grant_type=client_credentials' \\`,
      `  --data-urlencode ${shellWord(`client_id=${token.clientId}`)} \\`,
      `  --data-urlencode "client_secret=$${SECRET_VARIABLE}" \\`,
      `  --data-urlencode ${shellWord(`audience=${token.audience}`)} \\`,
      `  | ${EXTRACT_TOKEN})`,
    )
  } else {
    // The secret goes through printf's argument, not the format, so a `%` or `\` in it stays as it is; only `"` and `\` need JSON escaping.
    const before = JSON.stringify({ WorkspaceName: token.workspace, ClientId: token.clientId }).slice(0, -1)
    lines.push(
      `SECRET_JSON=$(printf '%s' "$${SECRET_VARIABLE}" | sed 's/[\\\\"]/\\\\&/g')`,
      `TOKEN=$(printf '%s"ClientSecret":"%s","ForceReauth":false}' ${shellWord(before + ',')} "$SECRET_JSON" \\`,
      `  | curl -s -X POST ${shellWord(`${token.authUrl}/api/auth`)} -H 'Content-Type: application/json-patch+json' -H 'Accept: */*' --data-binary @- \\`,
      `  | ${EXTRACT_TOKEN})`,
    )
  }
  lines.push(`curl -s -H "Authorization: Bearer $TOKEN" ${shellWord(plan.url)}`)
  return lines.join('\n') + '\n'
}
