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

export interface KeychainTimeouts {
  /** The start-up probe. */
  probeMs?: number
  /** Any later call: a prompt nobody answers, a daemon that hangs. */
  callMs?: number
}

const DEFAULT_TIMEOUTS: Required<KeychainTimeouts> = { probeMs: 3_000, callMs: 10_000 }
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

/** The keychain's own words, one line, without anything that could be a secret (it never holds one). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]!.slice(0, 200)
}

/** A call queued behind one that timed out: it never reached the keychain. */
class KeychainSkipped extends Error {}

class KeychainTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms / 1000} s`)
  }
}

/**
 * Opens the OS keychain when one answers a probe that writes, reads back and
 * deletes an entry; else an in-memory store that says plainly why and that
 * secrets last for this run only. A keychain that reads but refuses writes
 * (a locked collection) counts as none.
 */
export async function openSecretStore(
  service = DEFAULT_KEYCHAIN_SERVICE,
  keytarModule?: Keytar,
  timeouts: KeychainTimeouts = {},
): Promise<SecretStore> {
  const keytar = keytarModule ?? loadKeytar()
  if (typeof keytar === 'string') return memorySecretStore(memoryDetail(keytar))
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts }
  const store = osSecretStore(service, keytar, limits.callMs)
  const probe = randomBytes(8).toString('hex')
  try {
    await store.probe(() => keytar.getPassword(service, PROBE_ACCOUNT), limits.probeMs)
  } catch (error) {
    return store.kind === 'memory' ? store : memorySecretStore(memoryDetail(`the OS keychain did not answer: ${reasonOf(error)}`))
  }
  try {
    try {
      await store.probe(() => keytar.setPassword(service, PROBE_ACCOUNT, probe), limits.probeMs)
      const back = await store.probe(() => keytar.getPassword(service, PROBE_ACCOUNT), limits.probeMs)
      if (back !== probe) throw new Error('an entry written could not be read back')
    } finally {
      await store.probe(() => keytar.deletePassword(service, PROBE_ACCOUNT), limits.probeMs).catch(() => false)
    }
  } catch (error) {
    // A probe that timed out left the store "not answering": it already says so and holds the stuck call.
    if (store.kind === 'memory') return store
    return memorySecretStore(memoryDetail(`the OS keychain answers but refused to store a secret: ${reasonOf(error)}; is it locked?`))
  }
  return store
}

/**
 * The OS keychain, with every failure turned into a sentence that says it was
 * the keychain. Calls run one at a time: keytar runs each on one of libuv's
 * four threads, and a keychain that hangs (a locked collection asked
 * concurrently, a prompt nobody answers) holds that thread for good, which
 * would starve file I/O and DNS. After the first call that times out, the
 * keychain counts as not answering for the rest of the run: no further call
 * reaches it, and secrets live in memory, as when no keychain exists.
 */
export function osSecretStore(service: string, keytar: Keytar, callMs = DEFAULT_TIMEOUTS.callMs) {
  let queue: Promise<unknown> = Promise.resolve()
  let fallback: SecretStore | null = null
  let stuckCalls = 0

  const serial = <T>(run: () => Promise<T>, ms: number): Promise<T> => {
    const next = queue.then(() => {
      if (fallback) throw new KeychainSkipped()
      return new Promise<T>((resolve, reject) => {
        const call = run()
        const timer = setTimeout(() => {
          stuckCalls++
          call.finally(() => stuckCalls--).catch(() => undefined)
          fallback ??= memorySecretStore(stoppedDetail(ms))
          reject(new KeychainTimeout(ms))
        }, ms)
        call.then(
          (value) => (clearTimeout(timer), resolve(value)),
          (error: unknown) => (clearTimeout(timer), reject(error)),
        )
      })
    })
    queue = next.catch(() => undefined)
    return next
  }

  const call = async <T>(what: string, run: () => Promise<T>, orMemory: (memory: SecretStore) => Promise<T>): Promise<T> => {
    if (fallback) return orMemory(fallback)
    try {
      return await serial(run, callMs)
    } catch (error) {
      if (error instanceof KeychainSkipped) return orMemory(fallback!)
      if (error instanceof KeychainTimeout) {
        throw new ExplorerError(
          'keychain',
          `The OS keychain did not answer within ${error.ms / 1000} s, so it is no longer used in this run: secrets are kept in memory until the app closes. Enter the secret again, or restart the app once the keychain is unlocked.`,
        )
      }
      throw new ExplorerError('keychain', `The OS keychain refused to ${what} (${reasonOf(error)}). Unlock the keychain and try again.`)
    }
  }

  return {
    get kind(): SecretStore['kind'] {
      return fallback ? 'memory' : 'os'
    },
    get detail(): string {
      return fallback ? fallback.detail : 'Secrets are kept in the OS keychain.'
    },
    get: (account: string) => call('read the secret', () => keytar.getPassword(service, account), (memory) => memory.get(account)),
    set: (account: string, secret: string) =>
      call('store the secret', () => keytar.setPassword(service, account, secret), (memory) => memory.set(account, secret)),
    delete: (account: string) => call('delete the secret', () => keytar.deletePassword(service, account), (memory) => memory.delete(account)),
    held: () => stuckCalls > 0,
    /** A start-up probe call: through the same queue, with its own time limit. */
    probe: <T>(run: () => Promise<T>, ms: number) => serial(run, ms),
  } satisfies SecretStore & { probe: unknown }
}

function memoryDetail(reason: string): string {
  return `No usable OS keychain (${reason}). Secrets are kept in memory for this run only and are never written to disk.`
}

function stoppedDetail(ms: number): string {
  return `The OS keychain stopped answering (no answer within ${ms / 1000} s). Secrets are kept in memory for the rest of this run only and are never written to disk.`
}
