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

/** Keys already judged: a file repeats a few names (a set's 200,000 judgments have four), so each is tested once a file. */
const judged = new Map<string, boolean>()

function looksSecret(key: string): boolean {
  let secret = judged.get(key)
  if (secret === undefined) {
    const bare = key.toLowerCase().replace(/[^a-z0-9]/g, '')
    secret = SECRET_NAME.test(bare) && !ALLOWED_NAMES.has(bare)
    // Bounded: a hostile file may hold a million different names.
    if (judged.size < 10_000) judged.set(key, secret)
  }
  return secret
}

/**
 * The path of the first secret-looking key, or null. The names inside a
 * step's `parameters` and `context` are left alone: they are the API's own
 * parameter names, already part of the request URL the app shows and logs.
 */
export function secretLookingField(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  const at = [...path]
  return found(value, at) ? at : null
}

/** Whether `value`, at `path`, holds a secret-looking key; `path` is one array, grown and cut back as the walk goes (then the key's path). */
function found(value: unknown, path: (string | number)[]): boolean {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index)
      if (found(value[index], path)) return true
      path.pop()
    }
    return false
  }
  if (value === null || typeof value !== 'object') return false
  const inStep = path.length >= 2 && path[path.length - 2] === 'steps'
  for (const key of Object.keys(value)) {
    if (inStep && (key === 'parameters' || key === 'context')) continue
    path.push(key)
    if (looksSecret(key) || found((value as Record<string, unknown>)[key], path)) return true
    path.pop()
  }
  return false
}
