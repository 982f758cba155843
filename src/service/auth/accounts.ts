import { randomBytes, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { DEMO_WORKSPACE } from '../workspace/workspaces'

/**
 * M2M accounts (seed: "What the service does"): a client id, a secret, one or
 * more roles and the workspaces the account belongs to.
 */

export const ROLES = ['API Usage', 'Data Provider'] as const
export type Role = (typeof ROLES)[number]

export const AccountSpecSchema = z
  .object({
    clientId: z.string().min(1),
    /** Left out: a random secret is generated at start and reported once. */
    clientSecret: z.string().min(1).optional(),
    name: z.string().optional(),
    roles: z.array(z.enum(ROLES)).min(1).optional(),
    workspaces: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict()

export const AccountListSchema = z.array(AccountSpecSchema).min(1)
export const AccountsObjectSchema = z.object({ accounts: AccountListSchema }).strict()
export const AccountFileSchema = z.union([AccountListSchema, AccountsObjectSchema])

/** The schema for what the file holds: checked by its own shape, so a problem names its field and rule (a union says only "Invalid input"). */
export const accountFileSchemaOf = (json: unknown) => (Array.isArray(json) ? AccountListSchema : AccountsObjectSchema)

export type AccountSpec = z.infer<typeof AccountSpecSchema>

export interface Account {
  clientId: string
  clientSecret: string
  name: string
  roles: Role[]
  workspaces: string[]
  /** True when the secret was made at start; it is shown to the operator once. */
  generatedSecret: boolean
}

export const DEMO_ACCOUNT: AccountSpec = { clientId: 'demo', name: 'Demo account', roles: ['API Usage'], workspaces: [DEMO_WORKSPACE] }

export function createAccount(spec: AccountSpec): Account {
  const generated = spec.clientSecret === undefined
  return {
    clientId: spec.clientId,
    clientSecret: spec.clientSecret ?? randomBytes(24).toString('base64url'),
    name: spec.name ?? spec.clientId,
    roles: spec.roles ?? ['API Usage'],
    workspaces: spec.workspaces ?? [DEMO_WORKSPACE],
    generatedSecret: generated,
  }
}

export class AccountDirectory {
  private readonly byId = new Map<string, Account>()

  constructor(accounts: Account[]) {
    for (const account of accounts) {
      if (this.byId.has(account.clientId)) throw new Error(`Two accounts share the client id "${account.clientId}"`)
      this.byId.set(account.clientId, account)
    }
  }

  /** The account whose id and secret both match; comparing in constant time. */
  authenticate(clientId: string, clientSecret: string): Account | null {
    const account = this.byId.get(clientId)
    if (!account) return null
    const given = Buffer.from(clientSecret)
    const expected = Buffer.from(account.clientSecret)
    return given.length === expected.length && timingSafeEqual(given, expected) ? account : null
  }

  get(clientId: string): Account | undefined {
    return this.byId.get(clientId)
  }
}
