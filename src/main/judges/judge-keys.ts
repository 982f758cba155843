import { ExplorerError } from '../../shared/ipc/errors'
import { decodeBoundSecret, encodeBoundSecret } from '../credentials/bound-secret'
import type { SecretStore } from '../credentials/secret-store'

/**
 * A judge's API key lives in the OS keychain (or, where none answers, in
 * memory for the run), never in the workspace file: one key per origin of a
 * base URL, stored bound to that origin as connection secrets are
 * (bound-secret.ts). A workspace file that names another base URL asks for
 * another origin's key, so it never receives the one saved for this origin.
 */

/** The command line's key, for a judge run from a terminal or CI. */
export const JUDGE_KEY_ENV = 'QUERY_EXPLORER_JUDGE_KEY'

export interface JudgeKeyStatus {
  origin: string
  stored: boolean
  storage: SecretStore['kind']
}

export function judgeKeyAccount(origin: string): string {
  return `judge-key:${origin}`
}

/** The exact origin a key is kept for: scheme, host and port of an http(s) base URL. */
export function judgeKeyOrigin(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new ExplorerError('validation', 'Base URL: is not an address; a judge\'s key is kept for the origin of its base URL.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ExplorerError('validation', `Base URL: must be an http(s) address (not ${url.protocol}); a judge's key is kept for the origin of its base URL.`)
  }
  return url.origin
}

/** A key as pasted: surrounding white space dropped; a control character inside (a line break) is refused, as no header can carry it. */
function cleanKey(key: string): string {
  const clean = key.trim()
  if (clean === '') throw new ExplorerError('validation', 'Key: is empty.')
  if (/[\u0000-\u001f\u007f]/.test(clean)) throw new ExplorerError('validation', 'Key: has a control character (a line break?) in it; paste the key alone.')
  return clean
}

export class JudgeKeys {
  constructor(
    private readonly secrets: SecretStore,
    /** Told every key that passes through, so the logger can redact it. */
    private readonly onSensitive: (value: string) => void = () => undefined,
  ) {}

  async status(baseUrl: string): Promise<JudgeKeyStatus> {
    const origin = judgeKeyOrigin(baseUrl)
    return { origin, stored: (await this.get(baseUrl)) !== null, storage: this.secrets.kind }
  }

  async set(baseUrl: string, key: string): Promise<JudgeKeyStatus> {
    const origin = judgeKeyOrigin(baseUrl)
    const clean = cleanKey(key)
    this.onSensitive(clean)
    await this.secrets.set(judgeKeyAccount(origin), encodeBoundSecret({ origin, secret: clean }))
    return { origin, stored: true, storage: this.secrets.kind }
  }

  clear(baseUrl: string): Promise<boolean> {
    return this.secrets.delete(judgeKeyAccount(judgeKeyOrigin(baseUrl)))
  }

  /** The key stored for exactly this base URL's origin, or null. An entry not bound to that origin (written by hand, or altered) is not used. */
  async get(baseUrl: string): Promise<string | null> {
    const origin = judgeKeyOrigin(baseUrl)
    const stored = await this.secrets.get(judgeKeyAccount(origin))
    if (stored === null) return null
    // No judge key was ever stored unbound: a plain entry belongs to no origin.
    const bound = decodeBoundSecret(stored, '')
    if (bound.origin !== origin || bound.secret === '') return null
    this.onSensitive(bound.secret)
    return bound.secret
  }
}

/** The key the command line was given in QUERY_EXPLORER_JUDGE_KEY, or null when it is unset or blank. */
export function envJudgeKey(env: Record<string, string | undefined> = process.env): string | null {
  const value = env[JUDGE_KEY_ENV]?.trim()
  return value ? value : null
}
