import type { WorkspaceConnection } from './workspace-file'

/**
 * Which of the app's connections a workspace file's connection runs on. A
 * file carries no secret and no app id, only a description; the app looks for
 * a profile it already has rather than asking the user each time a teammate's
 * file is opened. The demo service listens on a new port every launch, so a
 * file written against it never names this launch's URLs: a profile that
 * differs only in the URLs' host or port counts too, as "moved".
 */

/** What matching needs of an app connection. */
export interface AppConnectionFacts {
  id: string
  authUrl: string
  queryUrl: string
  workspace: string
  clientId: string
}

export type MatchHow = 'same' | 'moved'

export interface ConnectionMatch {
  connectionId: string
  how: MatchHow
}

type Relation = 'same' | 'moved' | 'other'

interface UrlParts {
  protocol: string
  host: string
  /** Everything but scheme and host: the path (without a trailing slash), query and fragment. */
  rest: string
}

function partsOf(url: string): UrlParts | null {
  try {
    const parsed = new URL(url)
    return { protocol: parsed.protocol, host: parsed.host, rest: `${parsed.pathname.replace(/\/+$/, '')}${parsed.search}${parsed.hash}` }
  } catch {
    return null
  }
}

/** `same` when the two name one address; `moved` when only the host or port differs. */
export function urlRelation(a: string, b: string): Relation {
  const left = a.trim()
  const right = b.trim()
  if (left === right) return 'same'
  const one = partsOf(left)
  const two = partsOf(right)
  if (!one || !two || one.protocol !== two.protocol || one.rest !== two.rest) return 'other'
  return one.host === two.host ? 'same' : 'moved'
}

/** How a file's connection relates to one app connection, or null when it is another service or account. */
export function relationTo(file: Pick<WorkspaceConnection, 'authUrl' | 'queryUrl' | 'workspace' | 'clientId'>, app: AppConnectionFacts): MatchHow | null {
  if (file.workspace.trim() !== app.workspace.trim() || file.clientId.trim() !== app.clientId.trim()) return null
  const auth = urlRelation(file.authUrl, app.authUrl)
  const query = urlRelation(file.queryUrl, app.queryUrl)
  if (auth === 'other' || query === 'other') return null
  return auth === 'same' && query === 'same' ? 'same' : 'moved'
}

/**
 * The app connection a file's connection runs on: one with the same URLs,
 * workspace and client ID, else one that differs only in the URLs' host or
 * port; among several equally good, `preferId` (the demo) first, else the
 * first in the app's order. Null when none fits: the user is asked.
 */
export function matchConnection(
  file: Pick<WorkspaceConnection, 'authUrl' | 'queryUrl' | 'workspace' | 'clientId'>,
  candidates: readonly AppConnectionFacts[],
  preferId?: string,
): ConnectionMatch | null {
  for (const how of ['same', 'moved'] as const) {
    const fits = candidates.filter((candidate) => relationTo(file, candidate) === how)
    const chosen = fits.find((candidate) => candidate.id === preferId) ?? fits[0]
    if (chosen) return { connectionId: chosen.id, how }
  }
  return null
}
