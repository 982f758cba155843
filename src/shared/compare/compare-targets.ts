import { z } from 'zod'
import type { QueryRequest } from '../query/model'

/** What a compare side or a test run is aimed at: an app connection, and optionally another API, configuration or version. */
export const RunTargetSchema = z
  .object({
    connectionId: z.string().min(1).max(200),
    api: z.string().min(1).max(500).optional(),
    config: z.string().min(1).max(500).optional(),
    version: z.string().min(1).max(20).optional(),
  })
  .strict()

export type RunTarget = z.infer<typeof RunTargetSchema>

/**
 * The two targets of the compare view as the user fills them in, the
 * one-click presets, and what is sent for them. A target is a connection and
 * the API, configuration and version to use on it.
 */

export interface TargetForm {
  connectionId: string
  api: string
  config: string
  /** Empty: the connection's own version (or none). */
  version: string
}

/** What the presets need of a connection. */
export interface ConnectionFacts {
  id: string
  name: string
  api: string
  workspace: string
  queryUrl: string
}

/**
 * The target as `compare:run` takes it. The configuration is always named, so
 * each side says what it ran and the top bar's cannot leak into either side;
 * `default` is a configuration every workspace has. The API is named where it
 * differs from the chain's own (`requestApi`), so a side's label mentions it
 * only then. An empty version leaves the connection's own.
 */
export function runTarget(form: TargetForm, requestApi = ''): RunTarget {
  const api = form.api.trim()
  const config = form.config.trim() || 'default'
  const version = form.version.trim()
  return { connectionId: form.connectionId, ...(api && api !== requestApi ? { api } : {}), config, ...(version ? { version } : {}) }
}

/** What keeps a target from running, as sentences naming the side and the field; empty when it can run. */
export function targetProblems(side: 'A' | 'B', form: TargetForm, connections: readonly Pick<ConnectionFacts, 'id'>[]): string[] {
  const problems: string[] = []
  if (!connections.some((connection) => connection.id === form.connectionId)) problems.push(`Choose a connection for ${side}.`)
  if (form.api.trim() === '') problems.push(`Name the API for ${side}.`)
  if (form.api.length > 500) problems.push(`The API of ${side} is longer than 500 characters.`)
  if (form.config.length > 500) problems.push(`The config of ${side} is longer than 500 characters.`)
  const version = form.version.trim()
  // The URL's version segment: digits and dots, as a pasted URL reads it.
  if (version !== '' && !(version.length <= 20 && /^\d+(\.\d+)*$/.test(version))) {
    problems.push(`The version of ${side} must be a number such as 2 or 1.1 (or empty for the connection's own).`)
  }
  return problems
}

/** A configuration of the API other than `current`: the one a "config A vs config B" comparison puts on B. */
export function otherConfig(configs: readonly string[], current: string): string | null {
  return configs.find((config) => config !== current) ?? null
}

/**
 * The configuration a comparison starts from, A: the API's `default` (the
 * service's own default, and the README's baseline) where it has one or
 * describes none, else the first it describes. Never the top bar's current
 * one: another view's action (Open from an evaluation) may have set that,
 * and a comparison's sides must not turn round with it.
 */
export function baselineConfig(configs: readonly string[]): string {
  return configs.length === 0 || configs.includes('default') ? 'default' : configs[0]!
}

/**
 * "Config A vs config B": both sides on the current connection and API, A
 * with the baseline configuration, B with another one the API describes.
 * Null when the API describes no other.
 */
export function configPreset(current: TargetForm, configs: readonly string[]): { a: TargetForm; b: TargetForm } | null {
  const a = { ...current, config: baselineConfig(configs) }
  const other = otherConfig(configs, a.config)
  return other === null ? null : { a, b: { ...a, config: other } }
}

/**
 * "Same query on two connections": A is the current target, B the same chain
 * and configuration on another connection: one to the same workspace and API
 * if there is one (staging and production of one service), else the first
 * other. B keeps A's API where its connection names no other (a connection's
 * API is part of where it points). Null when there is no other connection.
 */
export function connectionsPreset(current: TargetForm, connections: readonly ConnectionFacts[]): { a: TargetForm; b: TargetForm } | null {
  const self = connections.find((connection) => connection.id === current.connectionId)
  const others = connections.filter((connection) => connection.id !== current.connectionId)
  const alike = others.find((connection) => self && connection.workspace === self.workspace && connection.api === current.api)
  const other = alike ?? others[0]
  if (!other) return null
  return { a: { ...current }, b: { ...current, connectionId: other.id, api: other.api || current.api } }
}

/**
 * The editor's chain as both sides run it. The configuration the top bar put
 * in the request goes (each side names its own), and so does the version when
 * it is only the current connection's (each side's connection brings its own);
 * a version pasted with a URL stays, as it is part of the query. The page
 * (count, offset) goes too: a comparison is of the top results, to its depth.
 */
export function compareRequest(request: QueryRequest, keepVersion: boolean): QueryRequest {
  const { config: _config, count: _count, offset: _offset, ...options } = request.options
  const { version, ...rest } = request
  return { ...rest, ...(keepVersion && version !== undefined ? { version } : {}), options }
}
