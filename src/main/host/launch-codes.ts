import { createHash, randomBytes } from 'node:crypto'

/** Long enough to open a page by hand, short enough that a code seen in passing is soon worth nothing. */
export const CODE_LIFETIME_MS = 2 * 60_000
/** Bounds the tables however often codes are minted or pages opened. */
const MAX_PENDING_CODES = 100
const MAX_SESSIONS = 1_000

export interface LaunchCodes {
  /** A code that opens one session, once, within CODE_LIFETIME_MS. */
  mint(): string
  /** The session key the code opens, or null for a code unknown, used or expired. */
  redeem(code: string): string | null
  /** Whether a key was handed out by redeem (and so may call the handler table). */
  isSessionKey(key: string): boolean
}

/**
 * The browser host's credentials. Only a one-time code ever travels in a URL,
 * which Chromium shows in every local user's `ps`; the key that calls the
 * handler table travels only in request headers. Both tables hold digests, so
 * a lookup's timing says nothing about the secret itself.
 */
export function createLaunchCodes(options: { now?: () => number; lifetimeMs?: number } = {}): LaunchCodes {
  // Read at each call, not captured: a test's fake clock must apply.
  const now = options.now ?? (() => Date.now())
  const lifetimeMs = options.lifetimeMs ?? CODE_LIFETIME_MS
  const pending = new Map<string, number>()
  const sessions = new Set<string>()

  const dropExpired = () => {
    const time = now()
    for (const [digest, expiresAt] of pending) if (expiresAt <= time) pending.delete(digest)
  }

  return {
    mint() {
      dropExpired()
      if (pending.size >= MAX_PENDING_CODES) pending.delete(pending.keys().next().value!)
      const code = secret()
      pending.set(digestOf(code), now() + lifetimeMs)
      return code
    },
    redeem(code) {
      const digest = digestOf(code)
      const expiresAt = pending.get(digest)
      pending.delete(digest)
      if (expiresAt === undefined || expiresAt <= now()) return null
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.values().next().value!)
      const key = secret()
      sessions.add(digestOf(key))
      return key
    },
    isSessionKey(key) {
      return key.length > 0 && sessions.has(digestOf(key))
    },
  }
}

function secret(): string {
  return randomBytes(32).toString('base64url')
}

function digestOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url')
}
