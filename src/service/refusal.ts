/**
 * A refusal with its HTTP status. The message is the whole body
 * (`{"message": …}`) and starts with the words SERVICE-CONTRACT fixes, since
 * the official client libraries match on them. The OAuth token route answers
 * in OAuth's own shape instead (`body`).
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Written instead of `{"message": …}` when set. */
    readonly body?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

export const badRequest = (message: string) => new ServiceError(400, message)

/** RFC 6749 section 5.2: `{"error": <code>, "error_description": <sentence>}`. */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, description, { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers }, { error, error_description: description })
}
