import { z } from 'zod'
import { SERVICE_ERROR_KINDS } from '../query/error-answer-text'

/** Every failure crosses the IPC boundary as data, with one of these codes. */
export const ERROR_CODES = [
  'validation', // the request (IPC message or query) breaks a rule; message names field and rule
  'not_found', // no such connection, api, endpoint …
  'network', // DNS, refused, reset, TLS
  'timeout',
  'cancelled',
  'http', // the service answered with an error status; `status` is set
  'auth', // token request refused or 401 after one re-authentication
  'quota', // 429 on the token request; `retryAfterSeconds` is set
  'bad_response', // the service answered something we cannot read
  'too_large', // response over the size cap
  'keychain',
  'internal',
] as const

export const ErrorCodeSchema = z.enum(ERROR_CODES)

export const IpcErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  status: z.number().int().optional(),
  retryAfterSeconds: z.number().optional(),
  /** An error status of the Query API, typed as the official clients type it (query/error-answer-text.ts). */
  serviceError: z.enum(SERVICE_ERROR_KINDS).optional(),
  /** The server's own words (its `{message}`, bounded), apart from the sentence: what a test case's messageStartsWith matches. */
  serverMessage: z.string().max(1_000).optional(),
  /** Per-field problems, for validation errors. */
  problems: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
})

export type ErrorCode = z.infer<typeof ErrorCodeSchema>
export type IpcError = z.infer<typeof IpcErrorSchema>

/** Thrown inside the main process; the dispatcher turns it into `{ ok: false, error }`. */
export class ExplorerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<IpcError, 'code' | 'message'> = {},
  ) {
    super(message)
    this.name = 'ExplorerError'
  }

  toIpc(): IpcError {
    return { code: this.code, message: this.message, ...this.extra }
  }
}
