/**
 * A refusal with its HTTP status. The message is the whole body
 * (`{"message": …}`) and starts with the words SERVICE-CONTRACT fixes, since
 * the official client libraries match on them.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

export const badRequest = (message: string) => new ServiceError(400, message)
