import { describe, expect, it } from 'vitest'
import { ERROR_CODES, ExplorerError, IpcErrorSchema } from '../../src/shared/ipc/errors'

/** A failure as it crosses the IPC boundary: data with a code, what the main process throws turned into it, and what the schema lets through. */

describe('IPC errors', () => {
  it('an ExplorerError is an Error with its code, and crosses as data with its extra fields', () => {
    const error = new ExplorerError('http', 'The service answered 404', { status: 404, serviceError: 'endpoint-not-found', serverMessage: 'no such endpoint' })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('ExplorerError')
    expect(error.message).toBe('The service answered 404')
    const data = error.toIpc()
    expect(data).toEqual({ code: 'http', message: 'The service answered 404', status: 404, serviceError: 'endpoint-not-found', serverMessage: 'no such endpoint' })
    expect(IpcErrorSchema.parse(data)).toEqual(data)
    // Data, not an Error: it survives structured cloning and JSON as it is.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)
  })

  it('a validation error carries its problems field by field', () => {
    const data = new ExplorerError('validation', 'count: must be at most 1000', { problems: [{ field: 'count', message: 'must be at most 1000' }] }).toIpc()
    expect(IpcErrorSchema.parse(data).problems).toEqual([{ field: 'count', message: 'must be at most 1000' }])
    expect(new ExplorerError('cancelled', 'Cancelled').toIpc()).toEqual({ code: 'cancelled', message: 'Cancelled' })
  })

  it('the schema refuses an unknown code, a fractional status, an unknown service error kind and an over-long server message', () => {
    expect(ERROR_CODES).toContain('quota')
    const fails = (value: unknown) => IpcErrorSchema.safeParse(value).success === false
    expect(fails({ code: 'oops', message: 'x' })).toBe(true)
    expect(fails({ code: 'http', message: 'x', status: 404.5 })).toBe(true)
    expect(fails({ code: 'http', message: 'x', serviceError: 'teapot' })).toBe(true)
    expect(fails({ code: 'http', message: 'x', serverMessage: 'x'.repeat(1_001) })).toBe(true)
    expect(fails({ code: 'http', message: 'x', serverMessage: 'x'.repeat(1_000) })).toBe(false)
    expect(fails({ code: 'quota', message: 'x', retryAfterSeconds: 30 })).toBe(false)
  })
})
