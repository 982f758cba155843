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
/**
 * The one origin the command line's key may be sent to, required with it:
 * the base URL comes from the workspace file, which a pull request can
 * change, while the CI's environment is the CI's own.
 */
export const JUDGE_ORIGIN_ENV = 'QUERY_EXPLORER_JUDGE_ORIGIN'

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

/**
 * What is wrong with a key, trimmed, or null: a control character inside (a
 * line break) no header can carry, and white space inside is no key's (a key
 * pasted with its label, or two keys). Never the key itself in the words.
 */
function keyProblem(key: string, verb: 'paste' | 'set'): string | null {
  if (key === '') return 'is empty.'
  if (/[\u0000-\u001f\u007f]/.test(key)) return `has a control character (a line break?) in it; ${verb} the key alone.`
  if (/\s/.test(key)) return `has white space inside it; ${verb} the key alone (a key is one word).`
  return null
}

/** A key as pasted: surrounding white space dropped; one with a control character or white space inside is refused. */
function cleanKey(key: string): string {
  const clean = key.trim()
  const problem = keyProblem(clean, 'paste')
  if (problem) throw new ExplorerError('validation', `Key: ${problem}`)
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

/** The origin QUERY_EXPLORER_JUDGE_ORIGIN names, or why it names none (its value is never quoted: it may be a key set in the wrong variable). */
function envOrigin(value: string | undefined): { origin: string } | { problem: string } {
  const text = value?.trim() ?? ''
  if (text === '') return { problem: 'is not set' }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { problem: 'is not an origin (scheme://host[:port])' }
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    return { problem: 'is not an origin: write http(s)://host[:port] alone, with no path, user or query' }
  }
  return { origin: url.origin }
}

/**
 * The key the command line was given in QUERY_EXPLORER_JUDGE_KEY for a judge
 * at `baseUrl`, or null when it is unset or blank. It is refused (a
 * validation error naming the variables and the rule, never the key) when
 * it has a control character or white space inside, and unless
 * QUERY_EXPLORER_JUDGE_ORIGIN names exactly the origin of `baseUrl`.
 */
export function envJudgeKey(env: Record<string, string | undefined>, baseUrl: string): string | null {
  const value = env[JUDGE_KEY_ENV]?.trim()
  if (!value) return null
  const problem = keyProblem(value, 'set')
  if (problem) throw new ExplorerError('validation', `${JUDGE_KEY_ENV}: ${problem}`)
  const origin = judgeKeyOrigin(baseUrl)
  const named = envOrigin(env[JUDGE_ORIGIN_ENV])
  const rule = `the key in ${JUDGE_KEY_ENV} is only sent to the origin ${JUDGE_ORIGIN_ENV} names (scheme://host[:port]), which must be the judge's base URL's; nothing was sent`
  if ('problem' in named) throw new ExplorerError('validation', `${JUDGE_ORIGIN_ENV}: ${named.problem}: ${rule}.`)
  if (named.origin !== origin) throw new ExplorerError('validation', `${JUDGE_ORIGIN_ENV}: is ${named.origin}, but the judge's base URL is on ${origin}: ${rule}.`)
  return value
}
