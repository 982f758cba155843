import { ExplorerError } from '../../shared/ipc/errors'
import { describeServiceError, type ServiceErrorContext } from '../../shared/query/error-answer-text'
import { header, type HttpResponse } from './http-client'
import { messageOf } from './response-body'

/**
 * An error status of the Query API as the error the app reports: the sentence
 * of query/error-answer-text.ts (the same the command line prints), the kind the
 * official clients would throw, and the server's own words apart, for a test
 * case's `messageStartsWith`.
 */
export function serviceError(response: HttpResponse, contentType: string, context: ServiceErrorContext): ExplorerError {
  const said = messageOf(response.body)
  const text = describeServiceError(response.status, said, context, unreadableBody(response, contentType))
  return new ExplorerError(text.code, text.message, {
    status: response.status,
    serviceError: text.kind,
    ...(said !== null ? { serverMessage: said } : {}),
  })
}

/** What came instead of a `{message}`: never the body itself (an HTML error page is not shown). */
export function unreadableBody(response: HttpResponse, contentType = header(response, 'content-type')): string {
  if (response.body.length === 0) return 'no message (the body is empty).'
  const kind = contentType.includes('html') ? 'an HTML page' : `${response.body.length} bytes of ${contentType || 'unknown type'}`
  return `no readable message (the body is ${kind}).`
}

/** An option as the URL sent it (`config=…`), decoded; undefined when the URL has none. */
export function sentOption(url: string, name: string): string | undefined {
  const query = url.indexOf('?')
  if (query < 0) return undefined
  for (const pair of url.slice(query + 1).split('#')[0]!.split('&')) {
    const at = pair.indexOf('=')
    if ((at < 0 ? pair : pair.slice(0, at)) !== name) continue
    const value = at < 0 ? '' : pair.slice(at + 1)
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '))
    } catch {
      return value
    }
  }
  return undefined
}
