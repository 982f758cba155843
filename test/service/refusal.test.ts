import { describe, expect, it } from 'vitest'
import { badRequest, oauthError, ServiceError } from '../../src/service/refusal'

/** The service's refusal: a status and the message the clients match on, or OAuth's own shape. */

describe('ServiceError', () => {
  it('is an Error with its status, message and headers; no OAuth body unless given', () => {
    const error = new ServiceError(503, 'Service busy: try again in a moment', { 'Retry-After': '1' })
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'ServiceError', status: 503, message: 'Service busy: try again in a moment', headers: { 'Retry-After': '1' }, body: undefined })
    expect(new ServiceError(404, 'No such api: x').headers).toEqual({})
  })

  it('badRequest is a 400 with the message as it is', () => {
    expect(badRequest('Option count must be a whole number from 1 to 100')).toMatchObject({ status: 400, message: 'Option count must be a whole number from 1 to 100', headers: {} })
  })
})

describe('oauthError', () => {
  it('is {error, error_description} (RFC 6749 section 5.2), never cached, with the headers given', () => {
    const error = oauthError(401, 'invalid_client', 'Invalid client credentials', { 'Retry-After': '5' })
    expect(error).toMatchObject({ status: 401, message: 'Invalid client credentials', body: { error: 'invalid_client', error_description: 'Invalid client credentials' } })
    expect(error.headers).toEqual({ 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Retry-After': '5' })
  })
})
