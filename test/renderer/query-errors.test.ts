import { describe, expect, it } from 'vitest'
import { failureOf } from '../../src/renderer/stores/query-errors'

/** The results area: the main process's sentence as it came, and where in the window to fix what it names. */
describe('failureOf', () => {
  it('points at the place in the window for each kind the official clients type', () => {
    const message = 'The service answered 404: No such workspace configuration: w/x. Check the configuration: "x" was sent, …'
    expect(failureOf({ code: 'http', status: 404, serviceError: 'config-not-found', message })).toEqual({
      title: 'The query did not run.',
      message,
      hint: 'Choose another Config in the top bar, or correct the one the connection uses.',
    })
    expect(failureOf({ code: 'http', status: 404, serviceError: 'api-not-found', message: 'm' }).hint).toContain('Choose another API in the top bar')
    expect(failureOf({ code: 'http', status: 400, serviceError: 'endpoint-not-found', message: 'm' }).hint).toBe("Correct the endpoint's name in its step, then run again.")
    expect(failureOf({ code: 'auth', status: 401, serviceError: 'unauthorized', message: 'm' }).hint).toContain('Token request and Audience')
    expect(failureOf({ code: 'http', status: 500, serviceError: 'server-error', message: 'm' }).hint).toContain('report the request URL')
  })

  it('keeps the status hints for errors of no known kind', () => {
    expect(failureOf({ code: 'http', status: 406, serviceError: 'unknown', message: 'm' }).hint).toBe('Choose another format in Options, or another endpoint.')
  })
})
