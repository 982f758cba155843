import { randomBytes } from 'node:crypto'
import type { Account } from './accounts'

/**
 * Issued access tokens: opaque random strings, each bound to one account and
 * one workspace, valid until they expire or are revoked.
 */

export interface IssuedToken {
  token: string
  clientId: string
  workspace: string
  expiresAt: number
}

export type TokenCheck = { ok: true; token: IssuedToken } | { ok: false }

export class TokenStore {
  private readonly byToken = new Map<string, IssuedToken>()
  private readonly current = new Map<string, IssuedToken>()

  constructor(
    private readonly lifetimeSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** ForceReauth false: the still-valid token of this account and workspace, if any. */
  existing(account: Account, workspace: string): IssuedToken | null {
    const token = this.current.get(currentKey(account.clientId, workspace))
    return token && this.isValid(token) ? token : null
  }

  /**
   * A new token, which becomes the account's current one for the workspace.
   * By default the previous current token is revoked (ForceReauth true);
   * OAuth issues leave it valid until it expires, as OAuth servers do.
   */
  issue(account: Account, workspace: string, options: { revokePrevious?: boolean } = {}): IssuedToken {
    const key = currentKey(account.clientId, workspace)
    const previous = this.current.get(key)
    if (previous && options.revokePrevious !== false) this.byToken.delete(previous.token)
    const token: IssuedToken = {
      token: randomBytes(32).toString('base64url'),
      clientId: account.clientId,
      workspace,
      expiresAt: this.now() + this.lifetimeSeconds * 1000,
    }
    this.byToken.set(token.token, token)
    this.current.set(key, token)
    this.sweep()
    return token
  }

  check(token: string): TokenCheck {
    const issued = this.byToken.get(token)
    return issued && this.isValid(issued) ? { ok: true, token: issued } : { ok: false }
  }

  remainingSeconds(token: IssuedToken): number {
    return Math.max(0, Math.ceil((token.expiresAt - this.now()) / 1000))
  }

  revokeAll(): void {
    this.byToken.clear()
    this.current.clear()
  }

  private isValid(token: IssuedToken): boolean {
    return token.expiresAt > this.now()
  }

  /** Drops expired tokens so a long-running service does not grow without bound. */
  private sweep(): void {
    for (const [value, token] of this.byToken) if (!this.isValid(token)) this.byToken.delete(value)
    for (const [key, token] of this.current) if (!this.isValid(token)) this.current.delete(key)
  }
}

function currentKey(clientId: string, workspace: string): string {
  return `${clientId}\u0000${workspace}`
}
