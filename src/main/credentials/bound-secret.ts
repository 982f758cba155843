/**
 * A client secret is kept with the origin of the auth URL it was entered for,
 * and is only ever sent there: a profile whose auth URL now points elsewhere
 * (edited, or taken from a shared file) cannot carry it to a new host.
 */
export interface BoundSecret {
  origin: string
  secret: string
}

export const SECRET_REENTRY_MESSAGE = 'The client secret must be entered again for the new auth URL.'

/** The origin a secret or token is bound to; '' (bound to nothing) for an address that does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

export function encodeBoundSecret(bound: BoundSecret): string {
  return JSON.stringify({ v: 1, origin: bound.origin, secret: bound.secret })
}

/**
 * Reads a keychain entry. An entry written before secrets were bound (plain
 * text) belongs to the auth URL the profile had then, which is `legacyOrigin`.
 */
export function decodeBoundSecret(text: string, legacyOrigin: string): BoundSecret {
  if (text.startsWith('{')) {
    try {
      const value = JSON.parse(text) as Partial<BoundSecret & { v: number }>
      if (value.v === 1 && typeof value.origin === 'string' && typeof value.secret === 'string') {
        return { origin: value.origin, secret: value.secret }
      }
    } catch {
      // a plain secret that happens to start with "{"
    }
  }
  return { origin: legacyOrigin, secret: text }
}
