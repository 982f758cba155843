/**
 * Where secrets (client secrets, cached tokens) live. Only the OS keychain or,
 * where none answers, process memory: never a file of ours.
 */
export interface SecretStore {
  /** Read at each use: an OS keychain that stops answering turns into `memory` for the rest of the run. */
  readonly kind: 'os' | 'memory'
  /** A sentence for the UI saying where secrets are kept. */
  readonly detail: string
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
  /**
   * True while a keychain call that timed out is still held by a native
   * thread: the process cannot exit normally then (see app/shutdown.ts).
   */
  held(): boolean
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
    held: () => false,
  }
}
