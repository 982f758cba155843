/**
 * Where secrets (client secrets, cached tokens) live. Only the OS keychain or,
 * where none answers, process memory: never a file of ours.
 */
export interface SecretStore {
  readonly kind: 'os' | 'memory'
  /** A sentence for the UI saying where secrets are kept. */
  readonly detail: string
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
}

export function memorySecretStore(detail: string): SecretStore {
  const secrets = new Map<string, string>()
  return {
    kind: 'memory',
    detail,
    async get(account) {
      return secrets.get(account) ?? null
    },
    async set(account, secret) {
      secrets.set(account, secret)
    },
    async delete(account) {
      return secrets.delete(account)
    },
  }
}
