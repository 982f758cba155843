import type { QueryRequest } from './model'
import { encodeSegment } from './url-segments'

/**
 * The optional `/<version>` segment after the query URL (SERVICE-CONTRACT
 * "URLs"), decided here only: which version a request is sent with, and how
 * that version is written. Pure.
 */

/** `/<version>`, percent-encoded; nothing when there is no version. */
export function versionSegment(version: string | undefined): string {
  return version === undefined ? '' : `/${encodeSegment(version)}`
}

/**
 * The version a request is sent with: its own when it names one (a pasted
 * URL's, a comparison side's), else its connection's, else none.
 */
export function sentVersion(own: string | undefined, connection: string | undefined): string | undefined {
  return own !== undefined ? own : connection
}

/** The request as sent: `request` itself (not a copy) unless the connection's version fills it in. */
export function withSentVersion(request: QueryRequest, connectionVersion: string | undefined): QueryRequest {
  return request.version !== undefined || connectionVersion === undefined ? request : { ...request, version: connectionVersion }
}
