import type { ConnectionInput } from './connection-input'

/**
 * The rules a connection profile keeps beyond the contract's types, stated
 * once: the main process enforces them on save, test and duplicate
 * (connection-registry.ts), and the connection form names the same problems,
 * in the same words, before it asks.
 */

/** The advanced "Request deadline": whole seconds in this range; left out, the client's default (60 s). */
export const DEADLINE_SECONDS = { min: 1, max: 600 } as const

/** The advanced OAuth "Audience": any identifier the auth server knows (often a URL, not always), up to this many characters. */
export const AUDIENCE_MAX_LENGTH = 2_000

/** One broken rule: the field it concerns (a ConnectionInput key, or "clientId" for a secret without one) and the sentence shown. */
export interface ConnectionProblem {
  field: string
  message: string
}

export interface ConnectionRulesResult {
  /** The input with its text trimmed, and an empty version, config or audience left out. */
  input: ConnectionInput
  /** Every problem at once, in field order; empty when the profile is fine. */
  problems: ConnectionProblem[]
}

/** The outcome of the URL rule: the parsed URL, or the sentence that says what is wrong. */
export type HttpUrlCheck = { ok: true; url: URL } | { ok: false; message: string }

/**
 * An absolute http(s) URL without a user name or password in it (the client
 * secret has a field of its own). A WHATWG URL parse decides.
 */
export function checkHttpUrl(text: string): HttpUrlCheck {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, message: `"${text.slice(0, 200)}" is not a valid URL.` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `The URL must start with http:// or https:// (got ${url.protocol}).` }
  }
  if (url.username || url.password) {
    return { ok: false, message: 'The URL must not carry a user name or password; the client secret goes in its own field.' }
  }
  return { ok: true, url }
}

/** The deadline's sentence; `shown` is the value as the user gave it (the form passes its text, so "abc" is not shown as NaN). */
export function deadlineProblemMessage(shown: string): string {
  return `Request deadline: a whole number of seconds from ${DEADLINE_SECONDS.min} to ${DEADLINE_SECONDS.max} (or leave it empty for 60), not ${shown.slice(0, 20)}.`
}

/** A typed client secret belongs to a client ID: without one there is nobody to send it for. */
export const SECRET_NEEDS_CLIENT_ID: ConnectionProblem = {
  field: 'clientId',
  message: 'Client ID: a client secret needs the client ID it belongs to.',
}

const URL_FIELDS = [
  ['authUrl', 'Auth URL'],
  ['queryUrl', 'Query URL'],
] as const

/**
 * Checks a profile: trimmed names, http(s) URLs without credentials in them
 * (the auth URL may be empty for a public API, one without a client ID), a
 * numeric version, a workspace, a whole-second deadline in range, an
 * audience of one bounded line. Every problem is reported at once, per
 * field; nothing is thrown.
 */
export function checkConnectionRules(input: ConnectionInput): ConnectionRulesResult {
  const problems: ConnectionProblem[] = []
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
    ...(input.audience !== undefined ? { audience: input.audience.trim() } : {}),
  }
  if (!trimmed.name) problems.push({ field: 'name', message: 'Name: give the connection a name.' })
  for (const [field, label] of URL_FIELDS) {
    const value = trimmed[field]
    if (field === 'authUrl' && !value && !trimmed.clientId) continue
    // A preset's template (`https://rest.sparque.ai/<workspace>/`) parses as a URL, percent-encoded: it is not one yet.
    const placeholder = /<[^<>]*>/.exec(value)
    if (placeholder) {
      problems.push({ field, message: `${label}: replace ${placeholder[0]} with your own value.` })
      continue
    }
    const url = checkHttpUrl(value)
    if (!url.ok) {
      problems.push({ field, message: `${label}: ${value ? url.message : 'enter the address, starting with http:// or https://.'}` })
    }
  }
  if (trimmed.version && !/^\d+(\.\d+)*$/.test(trimmed.version)) {
    problems.push({ field: 'version', message: `Version: a number such as 4 (or leave it empty), not "${trimmed.version.slice(0, 20)}".` })
  }
  if (!trimmed.workspace) problems.push({ field: 'workspace', message: 'Workspace: enter the workspace name.' })
  const deadline = trimmed.deadlineSeconds
  if (deadline !== undefined && !(Number.isInteger(deadline) && deadline >= DEADLINE_SECONDS.min && deadline <= DEADLINE_SECONDS.max)) {
    problems.push({ field: 'deadlineSeconds', message: deadlineProblemMessage(String(deadline)) })
  }
  const audience = trimmed.audience
  if (audience && audience.length > AUDIENCE_MAX_LENGTH) {
    problems.push({ field: 'audience', message: `Audience: at most ${AUDIENCE_MAX_LENGTH} characters (this one has ${audience.length}); leave it empty to send the query URL.` })
  } else if (audience && /[\u0000-\u001f\u007f]/.test(audience)) {
    problems.push({ field: 'audience', message: 'Audience: one line of text, without control characters (a pasted line break, a tab).' })
  }
  if (!trimmed.version) delete trimmed.version
  if (!trimmed.config) delete trimmed.config
  if (!trimmed.audience) delete trimmed.audience
  return { input: trimmed, problems }
}
