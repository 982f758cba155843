import { startService, type RunningService, type ServiceOptions } from '../../src/service'

/**
 * A started service plus the few calls every service test makes: a token
 * request, and a Query API GET that returns status, headers and raw bytes.
 */

export interface Answer {
  status: number
  headers: Headers
  bytes: Buffer
  text: string
  json(): any
}

export interface Session {
  service: RunningService
  requestToken(body: Record<string, unknown>, contentType?: string): Promise<Answer>
  /** `POST {auth_url}/oauth/token` with the form as given (a string is sent as it is). */
  requestOAuthToken(form: Record<string, string> | string, contentType?: string): Promise<Answer>
  token(force?: boolean): Promise<string>
  get(path: string, token?: string | null): Promise<Answer>
}

async function answer(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer())
  const text = bytes.toString('utf8')
  return { status: response.status, headers: response.headers, bytes, text, json: () => JSON.parse(text) }
}

export async function openSession(options: ServiceOptions = {}): Promise<Session> {
  const service = await startService({ port: 0, log: () => {}, ...options })
  let cached: string | null = null
  const session: Session = {
    service,
    async requestToken(body, contentType = 'application/json-patch+json') {
      return answer(
        await fetch(`${service.authUrl}/api/auth`, {
          method: 'POST',
          headers: { 'Content-Type': contentType, accept: '*/*' },
          body: JSON.stringify(body),
        }),
      )
    },
    async requestOAuthToken(form, contentType = 'application/x-www-form-urlencoded') {
      return answer(
        await fetch(`${service.authUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'Content-Type': contentType, accept: 'application/json' },
          body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
        }),
      )
    },
    async token(force = false) {
      if (cached && !force) return cached
      const reply = await session.requestToken({
        WorkspaceName: service.workspace,
        ClientId: service.account.clientId,
        ClientSecret: service.account.clientSecret,
        ForceReauth: force,
      })
      if (reply.status !== 200) throw new Error(`token request failed: ${reply.status} ${reply.text}`)
      cached = reply.json().access_token as string
      return cached
    },
    async get(path, token) {
      const bearer = token === undefined ? await session.token() : token
      const headers: Record<string, string> = bearer === null ? {} : { Authorization: `Bearer ${bearer}` }
      return answer(await fetch(service.queryUrl + path, { headers }))
    },
  }
  return session
}

/** `/world/api/places` + chain, for readable tests. */
export const PLACES = '/world/api/places'
export const PUBLIC = '/world/api/public'
