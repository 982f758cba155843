import type { QueryRequest } from '../query/model'
import { copyPlan, type CopyAsConnection } from './copy-plan'
import { curlText } from './curl-text'
import { pythonText } from './python-text'
import { typeScriptText } from './typescript-text'

/**
 * "Copy as": the current request as text someone can run elsewhere — curl,
 * the official TypeScript and Python clients (../shared/reference-clients),
 * or the bare URL — the same from the window's menu and `query-explorer
 * copy-as`. Each sends exactly the URL the app sends (config always, every
 * option it holds) and prints the answer; each is run by the conformance
 * tests. No secret or token can reach these texts: they are built from the
 * connection's description, and the secret is read from an environment
 * variable when the code runs (the Demo's curl below is the one exception).
 */

export { SECRET_VARIABLE, type CopyAsConnection } from './copy-plan'
export { shellQuote } from './literals'
export { curlText, pythonText, typeScriptText }
export type { FilledSecret } from './curl-text'

/**
 * The one text that carries a secret: curl for the built-in Demo, its secret
 * filled in by the main process (copy-as:demo-with-secret), offered for the
 * Demo only. Its secret changes every start and opens only the service the
 * app runs on this machine.
 */
export const DEMO_CURL_LABEL = "curl, with the Demo's secret"

export const COPY_AS_KINDS = ['curl', 'typescript', 'python', 'url'] as const
export type CopyAsKind = (typeof COPY_AS_KINDS)[number]

export const COPY_AS_LABELS: Record<CopyAsKind, string> = {
  curl: 'curl',
  typescript: 'TypeScript',
  python: 'Python',
  url: 'Request URL',
}

export function isCopyAsKind(text: string): text is CopyAsKind {
  return (COPY_AS_KINDS as readonly string[]).includes(text)
}

/** The URL the app sends for the request on this connection. */
export function requestUrl(connection: CopyAsConnection, request: QueryRequest): string {
  return copyPlan(connection, request).url
}

export function copyAsText(kind: CopyAsKind, connection: CopyAsConnection, request: QueryRequest): string {
  switch (kind) {
    case 'curl':
      return curlText(connection, request)
    case 'typescript':
      return typeScriptText(connection, request)
    case 'python':
      return pythonText(connection, request)
    case 'url':
      return requestUrl(connection, request)
  }
}
