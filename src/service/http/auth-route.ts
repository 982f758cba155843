import type { IncomingMessage } from 'node:http'
import { answerOAuthRequest, readOAuthRequest } from '../auth/oauth-request'
import { answerTokenRequest, readTokenRequest, type TokenService } from '../auth/token-request'
import { ServiceError, badRequest, oauthError } from '../refusal'
import { readBody } from './body'
import { jsonReply, type Reply } from './reply'

/** `POST {auth_url}/api/auth` and `POST {auth_url}/oauth/token`: the HTTP side of the token requests. */

/** Tokens must not be cached by anything between the client and us. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' }

function contentTypeOf(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
}

const ACCEPTED_TYPES = ['application/json-patch+json', 'application/json']

export async function answerAuth(service: TokenService, request: IncomingMessage): Promise<Reply> {
  const type = contentTypeOf(request)
  if (!ACCEPTED_TYPES.includes(type)) {
    throw new ServiceError(415, `The token request must be sent as ${ACCEPTED_TYPES.join(' or ')}, not "${type || 'no Content-Type'}"`)
  }
  const raw = await readBody(request)
  let body: unknown
  try {
    body = JSON.parse(raw.toString('utf8'))
  } catch {
    // The parser's own message quotes the body, which may hold the secret.
    throw badRequest('The request body is not valid JSON; send an object with WorkspaceName, ClientId, ClientSecret and ForceReauth')
  }
  const reply = answerTokenRequest(service, readTokenRequest(body))
  return jsonReply(200, reply, NO_STORE)
}

const FORM_TYPE = 'application/x-www-form-urlencoded'

/**
 * OAuth 2.0 client credentials. Every refusal is in OAuth's error shape, even
 * one made before the form is read (a body too large is still a 413).
 * `queryUrl` is the query URL as this request reached us (its Host), which is
 * what a client names as the audience.
 */
export async function answerOAuth(service: TokenService, request: IncomingMessage, queryUrl: string): Promise<Reply> {
  const type = contentTypeOf(request)
  if (type !== FORM_TYPE) {
    throw oauthError(400, 'invalid_request', `The token request must be sent form-encoded (${FORM_TYPE}), not as "${type || 'no Content-Type'}"`)
  }
  let raw: Buffer
  try {
    raw = await readBody(request)
  } catch (error) {
    if (error instanceof ServiceError) throw oauthError(error.status, 'invalid_request', error.message, error.headers)
    throw error
  }
  const reply = answerOAuthRequest(service, readOAuthRequest(new URLSearchParams(raw.toString('utf8'))), queryUrl)
  return jsonReply(200, reply, NO_STORE)
}
