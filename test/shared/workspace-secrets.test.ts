import { describe, expect, it } from 'vitest'
import { secretLookingField } from '../../src/shared/workspace/workspace-secrets'
import { sampleWorkspace } from '../fixtures/sample-workspace'

/**
 * The names a workspace file may not have (a file to be committed and shared
 * must not carry a credential): the path of the first one, or null. The
 * API's own parameter names inside a step are the request's, not the file's.
 */

describe('secret-looking fields', () => {
  it('finds none in an ordinary workspace, whatever its values say', () => {
    expect(secretLookingField(sampleWorkspace)).toBeNull()
    expect(secretLookingField({ notes: 'the secret token is in the vault', list: ['password'] })).toBeNull()
    expect(secretLookingField(null)).toBeNull()
  })

  it('gives the path of the first secret-looking key, deep in lists and objects', () => {
    expect(secretLookingField({ connections: [{ id: 'a' }, { id: 'b', clientSecret: 'x' }] })).toEqual(['connections', 1, 'clientSecret'])
    expect(secretLookingField({ later: [{ auth: { access_token: 'x', password: 'y' } }] })).toEqual(['later', 0, 'auth', 'access_token'])
    expect(secretLookingField({ a: { token: 1 } }, ['root'])).toEqual(['root', 'a', 'token'])
  })

  it('compares names without case, _ or -, and lets the token request kind through', () => {
    for (const name of ['CLIENT-SECRET', 'refresh_token', 'Passwd', 'passphrase', 'api-key', 'Credentials', 'bearer', 'Authorization', 'private_key']) {
      expect(secretLookingField({ [name]: 'x' }), name).toEqual([name])
    }
    for (const name of ['tokenRequest', 'token_request', 'Token-Request', 'name', 'api']) {
      expect(secretLookingField({ [name]: 'x' }), name).toBeNull()
    }
  })

  it("leaves a step's parameter and context names alone, but not the step's other keys or parameters elsewhere", () => {
    const steps = [{ endpoint: 'search', parameters: { token: 'word' }, context: { password: 'p' } }]
    expect(secretLookingField({ queries: [{ request: { steps } }] })).toBeNull()
    expect(secretLookingField({ queries: [{ request: { steps: [{ ...steps[0], apiKey: 'k' }] } }] })).toEqual(['queries', 0, 'request', 'steps', 0, 'apiKey'])
    expect(secretLookingField({ parameters: { token: 'x' } })).toEqual(['parameters', 'token'])
  })
})
