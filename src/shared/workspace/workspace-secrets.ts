/**
 * Names a workspace file may not have: a file meant to be committed and
 * shared must not travel around with a credential in it.
 */

/**
 * Names a file field may not have, compared without case, `_` or `-`:
 * `clientSecret`, `access_token`, `password`, `apiKey`… `tokenRequest` is the
 * connection's token request kind (json or OAuth), not a token.
 */
const SECRET_NAME = /secret|token|passw(or)?d|passphrase|apikey|credential|bearer|authorization|privatekey/
const ALLOWED_NAMES = new Set(['tokenrequest'])

function looksSecret(key: string): boolean {
  const bare = key.toLowerCase().replace(/[^a-z0-9]/g, '')
  return SECRET_NAME.test(bare) && !ALLOWED_NAMES.has(bare)
}

/**
 * The path of the first secret-looking key, or null. The names inside a
 * step's `parameters` and `context` are left alone: they are the API's own
 * parameter names, already part of the request URL the app shows and logs.
 */
export function secretLookingField(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = secretLookingField(value[index], [...path, index])
      if (found) return found
    }
    return null
  }
  if (value === null || typeof value !== 'object') return null
  const inStep = path.length >= 2 && path[path.length - 2] === 'steps'
  for (const key of Object.keys(value)) {
    if (inStep && (key === 'parameters' || key === 'context')) continue
    if (looksSecret(key)) return [...path, key]
    const found = secretLookingField((value as Record<string, unknown>)[key], [...path, key])
    if (found) return found
  }
  return null
}

