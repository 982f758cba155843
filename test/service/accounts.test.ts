import { describe, expect, it } from 'vitest'
import { AccountDirectory, AccountFileSchema, createAccount, DEMO_ACCOUNT } from '../../src/service/auth/accounts'

/** The service's M2M accounts: made from a spec (a secret generated when none is given), found and authenticated by id and secret. */

describe('createAccount', () => {
  it('fills what a spec leaves out: a generated secret, the id as name, API Usage, the demo workspace', () => {
    const account = createAccount({ clientId: 'ci-runner' })
    expect(account).toMatchObject({ clientId: 'ci-runner', name: 'ci-runner', roles: ['API Usage'], workspaces: ['world'], generatedSecret: true })
    // 24 random bytes as base64url: 32 characters of the URL-safe alphabet.
    expect(account.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(createAccount({ clientId: 'ci-runner' }).clientSecret).not.toBe(account.clientSecret)
  })

  it('keeps what the spec gives', () => {
    expect(createAccount({ clientId: 'loader', clientSecret: 's3cret', name: 'Loader', roles: ['Data Provider'], workspaces: ['world', 'sandbox'] })).toEqual({
      clientId: 'loader',
      clientSecret: 's3cret',
      name: 'Loader',
      roles: ['Data Provider'],
      workspaces: ['world', 'sandbox'],
      generatedSecret: false,
    })
  })

  it('makes the demo account: client id demo, API Usage, the world workspace, a secret of its own each start', () => {
    expect(createAccount(DEMO_ACCOUNT)).toMatchObject({ clientId: 'demo', name: 'Demo account', roles: ['API Usage'], workspaces: ['world'], generatedSecret: true })
  })
})

describe('AccountDirectory', () => {
  const demo = createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })
  const loader = createAccount({ clientId: 'loader', clientSecret: 'loader-secret', roles: ['Data Provider'] })
  const directory = new AccountDirectory([demo, loader])

  it('authenticates an account only when both its id and secret match', () => {
    expect(directory.authenticate('demo', 'demo-secret')).toBe(demo)
    expect(directory.authenticate('loader', 'loader-secret')).toBe(loader)
    expect(directory.authenticate('demo', 'loader-secret')).toBeNull()
    expect(directory.authenticate('demo', 'demo-secre')).toBeNull()
    expect(directory.authenticate('demo', 'demo-secret ')).toBeNull()
    expect(directory.authenticate('demo', '')).toBeNull()
    expect(directory.authenticate('nobody', 'demo-secret')).toBeNull()
  })

  it('finds an account by its id, and nothing for an unknown one', () => {
    expect(directory.get('loader')).toBe(loader)
    expect(directory.get('nobody')).toBeUndefined()
  })

  it('refuses two accounts with one client id', () => {
    expect(() => new AccountDirectory([demo, createAccount({ clientId: 'demo' })])).toThrow('Two accounts share the client id "demo"')
  })
})

describe('AccountFileSchema', () => {
  it('reads a list of accounts, or {accounts: [...]}', () => {
    expect(AccountFileSchema.safeParse([{ clientId: 'a' }]).success).toBe(true)
    expect(AccountFileSchema.safeParse({ accounts: [{ clientId: 'a', roles: ['API Usage', 'Data Provider'] }] }).success).toBe(true)
  })

  it('refuses no accounts, an empty id or secret, an unknown role or field', () => {
    for (const file of [[], { accounts: [] }, [{ clientId: '' }], [{ clientId: 'a', clientSecret: '' }], [{ clientId: 'a', roles: ['Admin'] }], [{ clientId: 'a', role: 'API Usage' }], [{ clientId: 'a', workspaces: [] }]]) {
      expect(AccountFileSchema.safeParse(file).success, JSON.stringify(file)).toBe(false)
    }
  })
})
