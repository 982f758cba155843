import type { TokenRequestKind } from '../../../shared/auth'

/**
 * Where a new connection starts from: what a kind of deployment always has
 * (its query URL, auth URL, version and token request), so that what is left
 * to type is the user's own: workspace, API, client ID and secret.
 */
export interface ConnectionPreset {
  id: 'seed' | 'spinque' | 'sparque'
  label: string
  /** One line under the choice: what it fills in and what is left. */
  description: string
  /** The connection's name when the user has not given one. */
  name: string
  queryUrl: string
  authUrl: string
  version: string
  tokenRequest: TokenRequestKind
  /** The part of the query URL still to be replaced, selected when the preset is chosen. */
  placeholder?: string
}

export const CONNECTION_PRESETS: readonly ConnectionPreset[] = [
  {
    id: 'seed',
    label: 'Auth host with /api/auth',
    description: 'Every field by hand; tokens from POST <auth URL>/api/auth (JSON), as the service description gives it.',
    name: '',
    queryUrl: '',
    authUrl: '',
    version: '',
    tokenRequest: 'json',
  },
  {
    id: 'spinque',
    label: 'Spinque cloud',
    description: 'Query URL https://rest.spinque.com/, auth https://login.spinque.com, version 4, OAuth: add your workspace, API, client ID and secret.',
    name: 'Spinque cloud',
    queryUrl: 'https://rest.spinque.com/',
    authUrl: 'https://login.spinque.com',
    version: '4',
    tokenRequest: 'oauth',
  },
  {
    // The product's newer documentation writes the query root this way; its auth host is the account's own, so none is guessed.
    id: 'sparque',
    label: 'Sparque',
    description: 'Query URL https://rest.sparque.ai/<workspace>/ (replace <workspace>), version 4, OAuth: the auth URL is the one your account gives.',
    name: 'Sparque',
    queryUrl: 'https://rest.sparque.ai/<workspace>/',
    authUrl: '',
    version: '4',
    tokenRequest: 'oauth',
    placeholder: '<workspace>',
  },
]
