import { describe, expect, it } from 'vitest'
import { CODE_LIFETIME_MS, createLaunchCodes } from '../../src/main/host/launch-codes'

describe('launch codes', () => {
  it('opens one session per code: a code works once and is never a session key', () => {
    const codes = createLaunchCodes()
    const code = codes.mint()
    expect(code).toMatch(/^[\w-]{43}$/)
    expect(codes.isSessionKey(code)).toBe(false)
    const key = codes.redeem(code)
    expect(key).toMatch(/^[\w-]{43}$/)
    expect(codes.isSessionKey(key!)).toBe(true)
    expect(codes.redeem(code)).toBeNull()
    expect(codes.redeem(key!)).toBeNull()
    expect(codes.isSessionKey('')).toBe(false)
  })

  it('gives every code and every session a secret of its own', () => {
    const codes = createLaunchCodes()
    const [a, b] = [codes.mint(), codes.mint()]
    expect(a).not.toBe(b)
    const [keyA, keyB] = [codes.redeem(a)!, codes.redeem(b)!]
    expect(keyA).not.toBe(keyB)
    expect(codes.isSessionKey(keyA) && codes.isSessionKey(keyB)).toBe(true)
  })

  it('refuses a code once its lifetime is over, and only then', () => {
    let time = 1_000_000
    const codes = createLaunchCodes({ now: () => time })
    const late = codes.mint()
    const inTime = codes.mint()
    time += CODE_LIFETIME_MS - 1
    expect(codes.redeem(inTime)).not.toBeNull()
    time += 1
    expect(codes.redeem(late)).toBeNull()
  })

  it('keeps a bounded number of unspent codes, dropping the oldest', () => {
    const codes = createLaunchCodes()
    const first = codes.mint()
    const rest = Array.from({ length: 100 }, () => codes.mint())
    expect(codes.redeem(first)).toBeNull()
    expect(codes.redeem(rest[0]!)).not.toBeNull()
  })
})
