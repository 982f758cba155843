import type { QueryRequest } from '../query/model'
import { clientCall, clientLimit, clientQueries, copyPlan, SECRET_VARIABLE, type CopyAsConnection, type CopyPlan } from './copy-plan'
import { pyString as literal } from './literals'

/**
 * "Copy as Python": a program for the official client `spinque_query_api`
 * that sends the request the window holds and prints the answer as JSON.
 * That client asks only results and statistics and writes endpoint names,
 * the workspace, API and config unencoded; for anything else the program
 * sends the exact URL with `requests` and the token the client's
 * `Authentication` gets. A connection on the seed's JSON token route gets a
 * small object with `get_access_token()`, the one method the client calls.
 */

/** `JsonTokenRoute`: the seed's `POST <auth URL>/api/auth`, standing in for the client's Authentication. */
function jsonTokenClass(plan: CopyPlan): string[] {
  if (plan.token.kind !== 'json') return []
  const { authUrl, clientId, workspace } = plan.token
  return [
    ``,
    ``,
    `class JsonTokenRoute:`,
    `    """This connection asks its tokens from its auth host's /api/auth (a JSON body), which the`,
    `    official client does not speak; the client only ever calls get_access_token(), so this stands in."""`,
    ``,
    `    def __init__(self, client_secret):`,
    `        self._client_secret = client_secret`,
    `        self._token = None`,
    `        self._expires = 0`,
    ``,
    `    def get_access_token(self):`,
    `        if self._token is None or self._expires < time.time() + 30:`,
    `            body = json.dumps({"WorkspaceName": ${literal(workspace)}, "ClientId": ${literal(clientId)},`,
    `                               "ClientSecret": self._client_secret, "ForceReauth": False})`,
    `            response = requests.post(${literal(`${authUrl}/api/auth`)}, data=body,`,
    `                                     headers={"Content-Type": "application/json-patch+json", "Accept": "*/*"})`,
    `            if response.status_code != 200:`,
    `                sys.exit(f"The token request was refused ({response.status_code}): {response.text}")`,
    `            answer = response.json()`,
    `            self._token = answer["access_token"]`,
    `            self._expires = int(time.time()) + int(answer.get("expires_in", 300))`,
    `        return self._token, self._expires`,
  ]
}

function authenticationLines(plan: CopyPlan): string[] {
  const token = plan.token
  if (token.kind === 'none') return []
  const secret = [
    ``,
    `client_secret = os.environ.get(${literal(SECRET_VARIABLE)})`,
    `if not client_secret:`,
    `    sys.exit(${literal(`Set ${SECRET_VARIABLE} to the client secret first.`)})`,
    ``,
  ]
  if (token.kind === 'json') return [``, ...secret, `authentication = JsonTokenRoute(client_secret)`]
  return [
    ...secret,
    `# The client keeps its token in ~/.cache/spinqueToken.* (that folder must exist).`,
    `authentication = Authentication(`,
    `    client_id=${literal(token.clientId)},`,
    `    client_secret=client_secret,`,
    `    # The OAuth audience, exactly as the auth server expects it.`,
    `    base_url=${literal(token.audience)},`,
    `    auth_server=${literal(token.authUrl)},`,
    `)`,
  ]
}

export function pythonText(connection: CopyAsConnection, request: QueryRequest): string {
  const plan = copyPlan(connection, request)
  const queries = clientQueries(plan)
  const limit = clientLimit(plan, clientCall(plan, plan.base, queries), 'python')
  const authenticated = plan.token.kind !== 'none'
  const useRequests = limit !== null || plan.token.kind === 'json'
  const names = limit === null ? ['Api', 'Query', 'RequestType'] : []
  if (plan.token.kind === 'oauth') names.push('Authentication')
  names.sort()

  const header = [
    `# Runs with the official Python client, spinque_query_api (Python 3 with requests).`,
    ...(authenticated ? [`# The client secret is read from ${SECRET_VARIABLE} in the environment; it is never written here.`] : []),
    `import json`,
    ...(authenticated ? [`import os`] : []),
    ...(authenticated || limit !== null ? [`import sys`] : []),
    ...(plan.token.kind === 'json' ? [`import time`] : []),
    ``,
    ...(useRequests ? [`import requests`] : []),
    ...(names.length > 0 ? [`from spinque_query_api import ${names.join(', ')}`] : []),
  ]
  const call =
    limit === null
      ? [
          ``,
          `api = Api(`,
          `    workspace=${literal(plan.workspace)},`,
          `    api=${literal(plan.api)},`,
          `    base_url=${literal(plan.base)},`,
          `    version=${literal(plan.version!)},`,
          `    config=${literal(plan.config)},`,
          ...(authenticated ? [`    authentication=authentication,`] : []),
          `)`,
          ``,
          `queries = [`,
          ...queries!.map((query) => {
            const parameters = query.parameters.map(([name, value]) => `(${literal(name)}, ${literal(value)})`).join(', ')
            return `    Query(endpoint=${literal(query.endpoint)}${parameters ? `, parameters=[${parameters}]` : ''}),`
          }),
          `]`,
          `options = {${plan.options.map(([name, value]) => `${literal(name)}: ${literal(value)}`).join(', ')}}`,
          ``,
          `answer = api.fetch(queries, options, RequestType.${plan.responseType === 'statistics' ? 'STATISTICS' : 'RESULTS'})`,
        ]
      : [
          ``,
          `# The client cannot write this request itself: ${limit}.`,
          `# It is sent with requests, to its exact URL${authenticated ? ', with the token the client would send' : ''}.`,
          ...(authenticated ? [`token, _expires = authentication.get_access_token()`] : []),
          `response = requests.get(${literal(plan.url)}${authenticated ? ', headers={"Authorization": f"Bearer {token}"}' : ''})`,
          `if response.status_code != 200:`,
          `    sys.exit(f"{response.status_code}: {response.text}")`,
          `answer = response.json()`,
        ]
  return [...header, ...jsonTokenClass(plan), ...authenticationLines(plan), ...call, `print(json.dumps(answer, indent=2))`, ``].join('\n')
}
