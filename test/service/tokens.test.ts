import { describe, expect, it } from 'vitest'
import { createAccount } from '../../src/service/auth/accounts'
import { TokenStore } from '../../src/service/auth/tokens'

/** Issued tokens: opaque, bound to one account and workspace, valid until they expire or are revoked. On a clock the test moves. */

const demo = createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })
const other = createAccount({ clientId: 'other', clientSecret: 'other-secret' })

function store(lifetimeSeconds = 3600) {
  let now = Date.UTC(2026, 0, 1, 9)
  return { tokens: new TokenStore(lifetimeSeconds, () => now), advance: (ms: number) => void (now += ms) }
}

describe('TokenStore', () => {
  it('issues an opaque random token bound to the account and workspace, valid for the lifetime', () => {
    const { tokens, advance } = store(60)
    const issued = tokens.issue(demo, 'world')
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(issued).toMatchObject({ clientId: 'demo', workspace: 'world', expiresAt: Date.UTC(2026, 0, 1, 9) + 60_000 })
    expect(tokens.check(issued.token)).toEqual({ ok: true, token: issued })
    expect(tokens.remainingSeconds(issued)).toBe(60)
    advance(59_500)
    expect(tokens.remainingSeconds(issued)).toBe(1)
    expect(tokens.check(issued.token).ok).toBe(true)
    advance(500)
    expect(tokens.check(issued.token)).toEqual({ ok: false })
    expect(tokens.remainingSeconds(issued)).toBe(0)
  })

  it('knows nothing of a token it did not issue', () => {
    const { tokens } = store()
    tokens.issue(demo, 'world')
    expect(tokens.check('made-up-token')).toEqual({ ok: false })
    expect(tokens.check('')).toEqual({ ok: false })
  })

  it('hands back the still-valid current token of an account and workspace, and none once it expired', () => {
    const { tokens, advance } = store(60)
    expect(tokens.existing(demo, 'world')).toBeNull()
    const issued = tokens.issue(demo, 'world')
    expect(tokens.existing(demo, 'world')).toBe(issued)
    expect(tokens.existing(demo, 'sandbox')).toBeNull()
    expect(tokens.existing(other, 'world')).toBeNull()
    advance(60_000)
    expect(tokens.existing(demo, 'world')).toBeNull()
  })

  it('revokes the previous token on a new issue (ForceReauth), but not for an OAuth issue', () => {
    const { tokens } = store()
    const first = tokens.issue(demo, 'world')
    const second = tokens.issue(demo, 'world')
    expect(tokens.check(first.token).ok).toBe(false)
    const third = tokens.issue(demo, 'world', { revokePrevious: false })
    expect(tokens.check(second.token).ok).toBe(true)
    expect(tokens.check(third.token).ok).toBe(true)
    expect(tokens.existing(demo, 'world')).toBe(third)
    // Another account's or workspace's token is not touched.
    const elsewhere = tokens.issue(demo, 'sandbox')
    tokens.issue(demo, 'world')
    expect(tokens.check(elsewhere.token).ok).toBe(true)
  })

  it('revokes every token at once', () => {
    const { tokens } = store()
    const a = tokens.issue(demo, 'world')
    const b = tokens.issue(other, 'world')
    tokens.revokeAll()
    expect([tokens.check(a.token).ok, tokens.check(b.token).ok]).toEqual([false, false])
    expect(tokens.existing(demo, 'world')).toBeNull()
  })
})
