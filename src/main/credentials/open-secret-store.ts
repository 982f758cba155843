import { createRequire } from 'node:module'
import { memorySecretStore, type SecretStore } from './secret-store'

export const DEFAULT_KEYCHAIN_SERVICE = 'query-explorer'

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

const PROBE_TIMEOUT_MS = 3_000

function loadKeytar(): Keytar | string {
  try {
    // keytar is an optional native dependency: a machine without libsecret
    // still installs and runs the app.
    return createRequire(__filename)('keytar') as Keytar
  } catch (error) {
    return `keytar could not be loaded (${(error as Error).message.split('\n')[0]})`
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    )
  })
}

/**
 * Opens the OS keychain when one answers a probe, else an in-memory store that
 * says plainly that secrets last for this run only.
 */
export async function openSecretStore(service = DEFAULT_KEYCHAIN_SERVICE): Promise<SecretStore> {
  const keytar = loadKeytar()
  if (typeof keytar === 'string') return memorySecretStore(memoryDetail(keytar))
  try {
    await withTimeout(keytar.getPassword(service, '__probe__'), PROBE_TIMEOUT_MS)
  } catch (error) {
    return memorySecretStore(memoryDetail(`the OS keychain did not answer: ${(error as Error).message}`))
  }
  return {
    kind: 'os',
    detail: 'Secrets are kept in the OS keychain.',
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, secret),
    delete: (account) => keytar.deletePassword(service, account),
  }
}

function memoryDetail(reason: string): string {
  return `No OS keychain is available (${reason}). Secrets are kept in memory for this run only and are never written to disk.`
}
