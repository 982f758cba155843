import type { IpcError } from '../../shared/ipc/errors'

/**
 * What the results area says when a query fails: a title, the main process's
 * own sentence (it never holds a stack trace or a secret), and what the user
 * can do about it.
 */

export interface QueryFailure {
  title: string
  message: string
  hint: string
}

/**
 * Where in the window to fix what an error status names (the sentence itself,
 * shared with the command line, already says what to check).
 */
const SERVICE_ERROR_HINTS: Partial<Record<NonNullable<IpcError['serviceError']>, string>> = {
  unauthorized: 'Open the connection settings (the gear beside the connection), check its client ID, secret, Token request and Audience, then use Test connection.',
  'endpoint-not-found': "Correct the endpoint's name in its step, then run again.",
  'api-not-found': "Choose another API in the top bar, or correct the connection's workspace in its settings.",
  'config-not-found': 'Choose another Config in the top bar, or correct the one the connection uses.',
  'server-error': 'The service failed; run again later, or report the request URL to its administrators.',
}

export function failureOf(error: IpcError): QueryFailure {
  const title = 'The query did not run.'
  const message = error.message
  const serviceHint = error.serviceError ? SERVICE_ERROR_HINTS[error.serviceError] : undefined
  if (serviceHint) return { title, message, hint: serviceHint }
  switch (error.code) {
    case 'validation':
      return { title, message, hint: 'Fix the fields named above, then run again.' }
    case 'http':
      if (error.status === 404) return { title, message, hint: 'Check the API name and the configuration in the top bar.' }
      if (error.status === 406) return { title, message, hint: 'Choose another format in Options, or another endpoint.' }
      if (error.status !== undefined && error.status >= 500) return { title, message, hint: 'The service failed; run again, or report the request URL to its administrators.' }
      return { title, message, hint: 'The service refused the request; change the step it names, then run again.' }
    case 'auth':
      return { title, message, hint: "Check the connection's client id and secret." }
    case 'quota':
      return {
        title,
        message,
        hint: error.retryAfterSeconds ? `Wait ${Math.ceil(error.retryAfterSeconds)} s before running again.` : 'Wait a while before running again.',
      }
    case 'network':
      return { title, message, hint: 'Check that the service is running and reachable, then run again.' }
    case 'timeout':
      return { title, message, hint: 'The service took too long; narrow the chain or run again.' }
    case 'too_large':
      return { title, message, hint: 'Ask for fewer rows (a smaller page size or level).' }
    case 'not_found':
      return { title, message, hint: 'Choose another connection or API in the top bar.' }
    default:
      return { title, message, hint: 'Run again; if it keeps failing, report the request URL.' }
  }
}

export function validationFailure(messages: readonly string[]): QueryFailure {
  return {
    title: 'The query was not sent.',
    message: messages.join('\n'),
    hint: 'Fix the fields marked in the chain or the options, then run again.',
  }
}
