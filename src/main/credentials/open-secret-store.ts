import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { ExplorerError } from '../../shared/ipc/errors'
import { memorySecretStore, type SecretStore } from './secret-store'

export const DEFAULT_KEYCHAIN_SERVICE = 'query-explorer'

export type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

const PROBE_TIMEOUT_MS = 3_000
/** A keychain call that never returns (a prompt nobody can answer) must not hang the app. */
const CALL_TIMEOUT_MS = 10_000
const PROBE_ACCOUNT = '__probe__'

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
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    )
  })
}

/** The keychain's own words, one line, without anything that could be a secret (it never holds one). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]!.slice(0, 200)
}

/**
 * Opens the OS keychain when one answers a probe that writes, reads back and
 * deletes an entry; else an in-memory store that says plainly why and that
 * secrets last for this run only. A keychain that reads but refuses writes
 * (a locked collection) counts as none.
 */
export async function openSecretStore(service = DEFAULT_KEYCHAIN_SERVICE, keytarModule?: Keytar): Promise<SecretStore> {
  const keytar = keytarModule ?? loadKeytar()
  if (typeof keytar === 'string') return memorySecretStore(memoryDetail(keytar))
  try {
    await withTimeout(keytar.getPassword(service, PROBE_ACCOUNT), PROBE_TIMEOUT_MS)
  } catch (error) {
    return memorySecretStore(memoryDetail(`the OS keychain did not answer: ${reasonOf(error)}`))
  }
  const probe = randomBytes(8).toString('hex')
  try {
    await withTimeout(keytar.setPassword(service, PROBE_ACCOUNT, probe), PROBE_TIMEOUT_MS)
    const back = await withTimeout(keytar.getPassword(service, PROBE_ACCOUNT), PROBE_TIMEOUT_MS)
    if (back !== probe) throw new Error('an entry written could not be read back')
  } catch (error) {
    return memorySecretStore(memoryDetail(`the OS keychain answers but refused to store a secret: ${reasonOf(error)}; is it locked?`))
  } finally {
    await withTimeout(keytar.deletePassword(service, PROBE_ACCOUNT), PROBE_TIMEOUT_MS).catch(() => false)
  }
  return osSecretStore(service, keytar)
}

/** The OS keychain, with every failure turned into a sentence that says it was the keychain. */
export function osSecretStore(service: string, keytar: Keytar): SecretStore {
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await withTimeout(run(), CALL_TIMEOUT_MS)
    } catch (error) {
      throw new ExplorerError('keychain', `The OS keychain refused to ${what} (${reasonOf(error)}). Unlock the keychain and try again.`)
    }
  }
  return {
    kind: 'os',
    detail: 'Secrets are kept in the OS keychain.',
    get: (account) => call('read the secret', () => keytar.getPassword(service, account)),
    set: (account, secret) => call('store the secret', () => keytar.setPassword(service, account, secret)),
    delete: (account) => call('delete the secret', () => keytar.deletePassword(service, account)),
  }
}

function memoryDetail(reason: string): string {
  return `No usable OS keychain (${reason}). Secrets are kept in memory for this run only and are never written to disk.`
}
