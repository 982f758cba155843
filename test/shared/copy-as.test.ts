import { describe, expect, it } from 'vitest'
import { SECRET_VARIABLE, copyAsText } from '../../src/shared/copy-as/copy-as'
import { connection, request, sent } from '../fixtures/copy-as'

/**
 * "Copy as" as the menu and the command line ask it, one kind at a time.
 * Each text's own cases are beside its module: curl-text, typescript-text,
 * python-text, literals (quoting) and copy-plan (what they are built from).
 */

describe('copy as', () => {
  it('every text names the secret variable (or no secret at all) and never a secret or token', () => {
    for (const kind of ['curl', 'typescript', 'python'] as const) {
      const text = copyAsText(kind, connection, request)
      expect(text).toContain(SECRET_VARIABLE)
      expect(text).not.toMatch(/Bearer [A-Za-z0-9]/)
      expect(text).toContain('client-42')
    }
    expect(copyAsText('url', connection, request)).toBe(sent(connection.queryUrl, request))
  })
})
