import type { TargetOverrides } from './case-request'

/**
 * What a run or a comparison side is aimed at, in words, as reports and the
 * Tests region show it: "Demo, config production", "Staging, API places-v2,
 * version 2".
 */
export function targetText(label: string, overrides: TargetOverrides, separator = ', '): string {
  const parts = [overrides.api && `API ${overrides.api}`, overrides.config && `config ${overrides.config}`, overrides.version && `version ${overrides.version}`].filter(Boolean)
  return parts.length > 0 ? `${label}${separator}${parts.join(separator)}` : label
}

/** A run with no target of its own: every case on the app connection its file connection is bound to. */
export const OWN_CONNECTIONS = "each case's own connection"
