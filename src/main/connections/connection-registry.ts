import { randomUUID } from 'node:crypto'
import { ExplorerError } from '../../shared/ipc/errors'
import type { ConnectionInput, ConnectionView } from '../../shared/ipc/contract'
import { checkConnectionRules, SECRET_NEEDS_CLIENT_ID } from '../../shared/connections/connection-rules'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { tokenCacheKey, tokenRequestOf } from '../auth/token-manager'
import { decodeBoundSecret, encodeBoundSecret, originOf, SECRET_REENTRY_MESSAGE } from '../credentials/bound-secret'
import { memorySecretStore, type SecretStore } from '../credentials/secret-store'
import type { QueryTarget } from '../http/query-runner'
import type { ConnectionStore, StoredConnection } from './connection-store'

/** A connection the app provides itself (the demo), with its secret in memory. */
export interface BuiltInConnection extends StoredConnection {
  secrets: SecretStore
}

export function secretKey(connectionId: string): string {
  return `secret:${connectionId}`
}

/**
 * Every connection the app knows: the built-in ones and the user's saved
 * profiles, with the secret store each one keeps its secret and token in.
 */
export class ConnectionRegistry {
  constructor(
    private readonly store: ConnectionStore,
    private readonly secrets: SecretStore,
    private readonly tokens: TokenManager,
    private readonly builtIns: BuiltInConnection[],
    /** Told every secret that passes through, so the logger can redact it. */
    private readonly onSensitive: (value: string) => void = () => undefined,
  ) {}

  async list(): Promise<ConnectionView[]> {
    const all = [...this.builtIns, ...this.store.list()]
    return Promise.all(all.map((connection) => this.view(connection)))
  }

  async view(connection: StoredConnection): Promise<ConnectionView> {
    const builtIn = this.builtIn(connection.id)
    const store = this.secretsFor(connection.id)
    const secret = await this.boundSecret(connection).catch(() => null)
    const { secrets: _omit, ...plain } = (builtIn ?? connection) as BuiltInConnection
    const status = await this.tokens.status(this.account(connection.id))
    return {
      ...plain,
      builtIn: Boolean(builtIn),
      hasSecret: secret !== null,
      tokenRequestsLastHour: status.requestsLastHour,
      secretStore: store.kind,
      tokenExpiresAt: status.tokenExpiresAt,
      retryAt: status.retryAt,
    }
  }

  /** Remembers the connection the user chose, so the app reopens on it. */
  async use(id: string): Promise<void> {
    this.get(id)
    await this.store.markUsed(id)
  }

  /** The connection last chosen, if it still exists. */
  lastUsed(): string | null {
    const id = this.store.lastUsed()
    return id && (this.builtIn(id) ?? this.store.get(id)) ? id : null
  }

  get(id: string): StoredConnection {
    const connection = this.builtIn(id) ?? this.store.get(id)
    if (!connection) throw new ExplorerError('not_found', `There is no connection with id "${id}".`)
    return connection
  }

  async save(input: ConnectionInput): Promise<ConnectionView> {
    if (input.id && this.builtIn(input.id)) {
      throw new ExplorerError('validation', 'The built-in demo connection cannot be changed; create a new connection instead.')
    }
    if (input.id && !this.store.get(input.id)) {
      throw new ExplorerError('not_found', `There is no connection with id "${input.id}" to change.`)
    }
    const clean = checkConnection(input)
    const before = input.id ? this.store.get(input.id) : undefined
    const saved = await this.store.save(clean)
    if (!before) return this.view(saved)
    // The secret was entered for the old auth host: it goes, rather than follow the profile elsewhere.
    const secretGone = originOf(before.authUrl) !== originOf(saved.authUrl) && (await this.clearBoundSecret(saved))
    // A token belongs to an auth host, workspace, client id, query host and audience: when one changes, the cached token goes.
    const queryMoved = originOf(before.queryUrl) !== originOf(saved.queryUrl)
    if (queryMoved) this.tokens.rebind(saved.id)
    const audienceChanged = tokenRequestOf(before).audience !== tokenRequestOf(saved).audience
    if (queryMoved || audienceChanged || before.authUrl !== saved.authUrl || before.workspace !== saved.workspace || before.clientId !== saved.clientId) {
      await this.forgetToken(saved.id)
    }
    const view = await this.view(saved)
    return secretGone ? { ...view, notice: SECRET_REENTRY_MESSAGE } : view
  }

  /** Removes a secret bound to another auth origin than the profile's; true when there was one. */
  private clearBoundSecret(connection: StoredConnection): Promise<boolean> {
    return this.secretsFor(connection.id).delete(secretKey(connection.id))
  }

  /**
   * The profile's client secret, if one is stored for `origin` (the origin of
   * its current auth URL, unless a form being tested names another); null
   * when none is stored; an error when the stored one was entered for another
   * origin.
   */
  private async boundSecret(connection: StoredConnection, origin = originOf(connection.authUrl)): Promise<string | null> {
    const stored = await this.secretsFor(connection.id).get(secretKey(connection.id))
    if (stored === null) return null
    const bound = decodeBoundSecret(stored, originOf(connection.authUrl))
    this.onSensitive(bound.secret)
    if (bound.origin !== origin || !bound.origin) throw new ExplorerError('auth', SECRET_REENTRY_MESSAGE)
    return bound.secret
  }

  /**
   * A profile as the connection form holds it, unsaved, for "Test connection":
   * checked as a save would check it, under an id of its own. Its account
   * uses the secret typed in the form (for this test only: it is never
   * stored), else the saved profile's stored secret when the form's auth URL
   * has the origin that secret was entered for. Its token goes to a throwaway
   * cache under that id, so the saved profile's cached token stays as it was.
   */
  async draft(input: ConnectionInput, typedSecret?: string): Promise<{ connection: StoredConnection; account: TokenAccount | null; tokenMode: 'check' | 'force' }> {
    if (typedSecret) this.onSensitive(typedSecret)
    const clean = checkConnection(input)
    const saved = input.id ? this.get(input.id) : null
    if (typedSecret && !clean.clientId) {
      const problem = { ...SECRET_NEEDS_CLIENT_ID }
      throw new ExplorerError('validation', problem.message, { problems: [problem] })
    }
    const connection: StoredConnection = { ...clean, id: `check:${randomUUID()}` }
    if (!connection.clientId) return { connection, account: null, tokenMode: 'check' }
    const origin = originOf(connection.authUrl)
    // ForceReauth false hands back the token the account holds now: only the saved profile's own hosts may see it.
    // A form that points anywhere else gets a token of its own, thrown away after the test.
    const sameHosts =
      saved !== null &&
      originOf(saved.authUrl) === origin &&
      originOf(saved.queryUrl) === originOf(connection.queryUrl) &&
      saved.workspace === connection.workspace &&
      saved.clientId === connection.clientId
    return {
      connection,
      tokenMode: sameHosts ? 'check' : 'force',
      account: {
        key: connection.id,
        authUrl: connection.authUrl,
        queryOrigin: originOf(connection.queryUrl),
        workspace: connection.workspace,
        clientId: connection.clientId,
        ...tokenRequestOf(connection),
        deadlineMs: deadlineMs(connection),
        secret: async () => (typedSecret ? typedSecret : saved ? this.boundSecret(saved, origin) : null),
        cache: memorySecretStore('A connection test keeps its token for that test only.'),
      },
    }
  }

  /**
   * Saves a copy of a profile, a built-in one included, as "<name> (copy)",
   * and copies its client secret from store to store inside this process,
   * bound to the same auth origin: a second connection to an account whose
   * secret nobody can read. The copy gets tokens of its own.
   */
  async duplicate(id: string): Promise<ConnectionView> {
    const source = this.get(id)
    const origin = originOf(source.authUrl)
    const stored = await this.secretsFor(id).get(secretKey(id))
    const bound = stored === null ? null : decodeBoundSecret(stored, origin)
    if (bound) this.onSensitive(bound.secret)
    const { id: _id, secrets: _secrets, ...fields } = source as BuiltInConnection
    const copy = await this.store.save(checkConnection({ ...fields, name: this.copyName(source.name) }))
    // A secret entered for another auth URL is not the source's to give: the copy asks for one, as the source would.
    if (bound && bound.origin && bound.origin === origin) {
      try {
        await this.secrets.set(secretKey(copy.id), encodeBoundSecret(bound))
      } catch (error) {
        // A copy without the secret it was made for would fail later for no visible reason.
        await this.store.delete(copy.id)
        throw error
      }
    }
    return this.view(copy)
  }

  /** "Demo (copy)", or "Demo (copy 2)" and on when that name is taken. */
  private copyName(name: string): string {
    const taken = new Set([...this.builtIns, ...this.store.list()].map((connection) => connection.name))
    const base = name.slice(0, 180)
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`
      if (!taken.has(candidate)) return candidate
    }
  }

  async delete(id: string): Promise<boolean> {
    if (this.builtIn(id)) throw new ExplorerError('validation', 'The built-in demo connection cannot be deleted.')
    if (!this.store.get(id)) return false
    // The keychain entries go first: a profile is never deleted while its secret stays behind.
    await this.secrets.delete(secretKey(id))
    await this.secrets.delete(tokenCacheKey(id))
    this.tokens.drop(id)
    return this.store.delete(id)
  }

  async setSecret(id: string, secret: string): Promise<SecretStore['kind']> {
    const connection = this.get(id)
    this.onSensitive(secret)
    const origin = originOf(connection.authUrl)
    if (!origin) throw new ExplorerError('validation', 'Auth URL: save a valid auth URL before the client secret; the secret is only ever sent there.')
    const store = this.secretsFor(id)
    await store.set(secretKey(id), encodeBoundSecret({ origin, secret }))
    // A new secret makes any token cached for the old one suspect.
    await this.forgetToken(id)
    return store.kind
  }

  async clearSecret(id: string): Promise<boolean> {
    this.get(id)
    const cleared = await this.secretsFor(id).delete(secretKey(id))
    await this.forgetToken(id)
    return cleared
  }

  account(id: string): TokenAccount | null {
    const connection = this.get(id)
    if (!connection.clientId) return null
    const store = this.secretsFor(id)
    return {
      key: connection.id,
      authUrl: connection.authUrl,
      queryOrigin: originOf(connection.queryUrl),
      workspace: connection.workspace,
      clientId: connection.clientId,
      deadlineMs: deadlineMs(connection),
      ...tokenRequestOf(connection),
      secret: () => this.boundSecret(connection),
      cache: store,
    }
  }

  target(id: string): QueryTarget {
    const connection = this.get(id)
    return { key: connection.id, queryUrl: connection.queryUrl, version: connection.version, account: this.account(id), deadlineMs: deadlineMs(connection) }
  }

  private async forgetToken(id: string): Promise<void> {
    this.tokens.drop(id)
    await this.secretsFor(id).delete(tokenCacheKey(id)).catch(() => false)
  }

  private builtIn(id: string): BuiltInConnection | undefined {
    return this.builtIns.find((connection) => connection.id === id)
  }

  private secretsFor(id: string): SecretStore {
    return this.builtIn(id)?.secrets ?? this.secrets
  }
}

/** A request's deadline for a profile: its advanced setting, else the client's default. */
function deadlineMs(connection: StoredConnection): number | undefined {
  return connection.deadlineSeconds === undefined ? undefined : connection.deadlineSeconds * 1000
}

export { DEADLINE_SECONDS } from '../../shared/connections/connection-rules'

/**
 * The rules a saved profile keeps beyond the contract's types (stated once,
 * in shared/connections/connection-rules.ts, which the connection form uses
 * too): http(s) URLs without credentials in them, a numeric version, trimmed
 * names. Every problem is reported at once, per field.
 */
export function checkConnection(input: ConnectionInput): ConnectionInput {
  const { input: trimmed, problems } = checkConnectionRules(input)
  if (problems.length > 0) {
    throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
  }
  return trimmed
}
