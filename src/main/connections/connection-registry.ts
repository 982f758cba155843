import { ExplorerError } from '../../shared/ipc/errors'
import type { ConnectionInput, ConnectionView } from '../../shared/ipc/contract'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { tokenCacheKey } from '../auth/token-manager'
import { parseHttpUrl } from '../query/http-client'
import { decodeBoundSecret, encodeBoundSecret, originOf, SECRET_REENTRY_MESSAGE } from '../credentials/bound-secret'
import type { SecretStore } from '../credentials/secret-store'
import type { QueryTarget } from '../query/query-runner'
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
    // A token belongs to an auth host, workspace, client id and query host: when one changes, the cached token goes.
    if (before.authUrl !== saved.authUrl || before.workspace !== saved.workspace || before.clientId !== saved.clientId) {
      await this.forgetToken(saved.id)
    }
    if (originOf(before.queryUrl) !== originOf(saved.queryUrl)) {
      this.tokens.rebind(saved.id)
      await this.forgetToken(saved.id)
    }
    const view = await this.view(saved)
    return secretGone ? { ...view, notice: SECRET_REENTRY_MESSAGE } : view
  }

  /** Removes a secret bound to another auth origin than the profile's; true when there was one. */
  private async clearBoundSecret(connection: StoredConnection): Promise<boolean> {
    const store = this.secretsFor(connection.id)
    const stored = await store.get(secretKey(connection.id)).catch(() => null)
    if (stored === null) return false
    await store.delete(secretKey(connection.id))
    return true
  }

  /**
   * The profile's client secret, if one is stored for the origin of its
   * current auth URL; null when none is stored; an error when the stored one
   * was entered for another origin.
   */
  private async boundSecret(connection: StoredConnection): Promise<string | null> {
    const stored = await this.secretsFor(connection.id).get(secretKey(connection.id))
    if (stored === null) return null
    const bound = decodeBoundSecret(stored, originOf(connection.authUrl))
    this.onSensitive(bound.secret)
    if (bound.origin !== originOf(connection.authUrl) || !bound.origin) throw new ExplorerError('auth', SECRET_REENTRY_MESSAGE)
    return bound.secret
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

export const DEADLINE_SECONDS = { min: 1, max: 600 } as const

/**
 * The rules a saved profile keeps beyond the contract's types: http(s) URLs
 * without credentials in them, a numeric version, trimmed names. Every problem
 * is reported at once, per field.
 */
export function checkConnection(input: ConnectionInput): ConnectionInput {
  const problems: { field: string; message: string }[] = []
  const trimmed: ConnectionInput = {
    ...input,
    name: input.name.trim(),
    authUrl: input.authUrl.trim(),
    queryUrl: input.queryUrl.trim(),
    workspace: input.workspace.trim(),
    api: input.api.trim(),
    clientId: input.clientId.trim(),
    ...(input.version !== undefined ? { version: input.version.trim() } : {}),
    ...(input.config !== undefined ? { config: input.config.trim() } : {}),
  }
  if (!trimmed.name) problems.push({ field: 'name', message: 'Name: give the connection a name.' })
  for (const [field, label] of [
    ['authUrl', 'Auth URL'],
    ['queryUrl', 'Query URL'],
  ] as const) {
    const value = trimmed[field]
    if (field === 'authUrl' && !value && !trimmed.clientId) continue
    try {
      parseHttpUrl(value)
    } catch (error) {
      problems.push({ field, message: `${label}: ${value ? (error as Error).message : 'enter the address, starting with http:// or https://.'}` })
    }
  }
  if (trimmed.version && !/^\d+(\.\d+)*$/.test(trimmed.version)) {
    problems.push({ field: 'version', message: `Version: a number such as 4 (or leave it empty), not "${trimmed.version.slice(0, 20)}".` })
  }
  if (!trimmed.workspace) problems.push({ field: 'workspace', message: 'Workspace: enter the workspace name.' })
  const deadline = trimmed.deadlineSeconds
  if (deadline !== undefined && !(Number.isInteger(deadline) && deadline >= DEADLINE_SECONDS.min && deadline <= DEADLINE_SECONDS.max)) {
    problems.push({
      field: 'deadlineSeconds',
      message: `Request deadline: a whole number of seconds from ${DEADLINE_SECONDS.min} to ${DEADLINE_SECONDS.max} (or leave it empty for 60), not ${String(deadline).slice(0, 20)}.`,
    })
  }
  if (!trimmed.version) delete trimmed.version
  if (!trimmed.config) delete trimmed.config
  if (problems.length > 0) {
    throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
  }
  return trimmed
}
