import { ExplorerError } from '../../shared/ipc/errors'
import type { ConnectionInput, ConnectionView } from '../../shared/ipc/contract'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { tokenCacheKey } from '../auth/token-manager'
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
  ) {}

  async list(): Promise<ConnectionView[]> {
    const all = [...this.builtIns, ...this.store.list()]
    return Promise.all(all.map((connection) => this.view(connection)))
  }

  async view(connection: StoredConnection): Promise<ConnectionView> {
    const builtIn = this.builtIn(connection.id)
    const secret = await this.secretsFor(connection.id).get(secretKey(connection.id)).catch(() => null)
    const { secrets: _omit, ...plain } = (builtIn ?? connection) as BuiltInConnection
    return {
      ...plain,
      builtIn: Boolean(builtIn),
      hasSecret: secret !== null,
      tokenRequestsLastHour: this.tokens.requestsLastHour(connection.id),
    }
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
    return this.view(await this.store.save(input))
  }

  async delete(id: string): Promise<boolean> {
    if (this.builtIn(id)) throw new ExplorerError('validation', 'The built-in demo connection cannot be deleted.')
    const deleted = await this.store.delete(id)
    await this.secrets.delete(secretKey(id)).catch(() => false)
    await this.secrets.delete(tokenCacheKey(id)).catch(() => false)
    return deleted
  }

  async setSecret(id: string, secret: string): Promise<SecretStore['kind']> {
    this.get(id)
    const store = this.secretsFor(id)
    await store.set(secretKey(id), secret)
    // A new secret makes any token cached for the old one suspect.
    await store.delete(tokenCacheKey(id)).catch(() => false)
    return store.kind
  }

  async clearSecret(id: string): Promise<boolean> {
    this.get(id)
    return this.secretsFor(id).delete(secretKey(id))
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
    return { queryUrl: connection.queryUrl, version: connection.version, account: this.account(id) }
  }

  private builtIn(id: string): BuiltInConnection | undefined {
    return this.builtIns.find((connection) => connection.id === id)
  }

  private secretsFor(id: string): SecretStore {
    return this.builtIn(id)?.secrets ?? this.secrets
  }
}
