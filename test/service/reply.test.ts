import { describe, expect, it } from 'vitest'
import { errorReply, internalErrorReply, JSON_TYPE, jsonReply } from '../../src/service/http/reply'
import { badRequest, oauthError, ServiceError } from '../../src/service/refusal'

/** What a route answers before it reaches the socket: JSON with its type, a refusal's body, a fault that says nothing of its internals. */

describe('jsonReply', () => {
  it('writes the value as JSON, typed application/json in UTF-8, the headers given added', () => {
    expect(jsonReply(200, { total: 3, name: 'Zürich' }, { 'Cache-Control': 'no-store' })).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      body: '{"total":3,"name":"Zürich"}',
    })
    expect(JSON_TYPE).toBe('application/json; charset=utf-8')
  })
})

describe('errorReply', () => {
  it('answers a refusal as {"message": …} with its status and headers', () => {
    expect(errorReply(new ServiceError(401, 'Invalid or expired token', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }))).toEqual({
      status: 401,
      headers: { 'Content-Type': JSON_TYPE, 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      body: '{"message":"Invalid or expired token"}',
    })
    expect(JSON.parse(errorReply(badRequest('Option count must be a whole number')).body as string)).toEqual({ message: 'Option count must be a whole number' })
  })

  it("answers an OAuth refusal in OAuth's shape, never cached", () => {
    const reply = errorReply(oauthError(429, 'too_many_requests', 'Token request quota exceeded', { 'Retry-After': '60' }))
    expect(reply.status).toBe(429)
    expect(reply.headers).toEqual({ 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Retry-After': '60' })
    expect(JSON.parse(reply.body as string)).toEqual({ error: 'too_many_requests', error_description: 'Token request quota exceeded' })
  })
})

describe('internalErrorReply', () => {
  it('is a 500 that says the request failed and was logged, and nothing more', () => {
    expect(internalErrorReply()).toEqual({
      status: 500,
      headers: { 'Content-Type': JSON_TYPE },
      body: '{"message":"Internal error: the service failed to answer this request; it has been logged"}',
    })
  })
})
