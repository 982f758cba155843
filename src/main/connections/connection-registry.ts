import { ExplorerError } from '../../shared/ipc/errors'
import type { ConnectionInput, ConnectionView } from '../../shared/ipc/contract'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { tokenCacheKey } from '../auth/token-manager'
import { parseHttpUrl } from '../query/http-client'
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
    const secret = await store.get(secretKey(connection.id)).catch(() => null)
    if (secret) this.onSensitive(secret)
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
    // A token belongs to an auth host, workspace and client id: when one changes, the cached token goes.
    if (before && (before.authUrl !== saved.authUrl || before.workspace !== saved.workspace || before.clientId !== saved.clientId)) {
      await this.forgetToken(saved.id)
    }
    return this.view(saved)
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
    this.get(id)
    this.onSensitive(secret)
    const store = this.secretsFor(id)
    await store.set(secretKey(id), secret)
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
      workspace: connection.workspace,
      clientId: connection.clientId,
      secret: () => store.get(secretKey(id)),
      cache: store,
    }
  }

  target(id: string): QueryTarget {
    const connection = this.get(id)
    return { key: connection.id, queryUrl: connection.queryUrl, version: connection.version, account: this.account(id) }
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
  if (!trimmed.version) delete trimmed.version
  if (!trimmed.config) delete trimmed.config
  if (problems.length > 0) {
    throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
  }
  return trimmed
}
