import type { IncomingMessage } from 'node:http'
import { answerTokenRequest, readTokenRequest, type TokenService } from '../auth/token-request'
import { ServiceError, badRequest } from '../service-error'
import { readBody } from './body'
import { jsonReply, type Reply } from './reply'

/** `POST {auth_url}/api/auth`: the HTTP side of the token request. */

const ACCEPTED_TYPES = ['application/json-patch+json', 'application/json']

export async function answerAuth(service: TokenService, request: IncomingMessage): Promise<Reply> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
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
  // Tokens must not be cached by anything between the client and us.
  return jsonReply(200, reply, { 'Cache-Control': 'no-store', Pragma: 'no-cache' })
}
