import { FORMATS, type Format, type QueryOptions, type ResponseType } from '../../shared/query/model'
import { misplacedOptionMessage, misplacedOptions } from '../../shared/query/response-types'
import { COUNT_MAX, COUNT_MIN } from '../../shared/query/validate'
import { ServiceError, badRequest } from '../refusal'
import type { RankingConfig } from './endpoint'

/** The request options with their defaults and bounds (SERVICE-CONTRACT "Options"). */

export interface ResolvedOptions {
  config: RankingConfig
  count: number
  offset: number
  format: Format
  level: number
  homogeneousArrays: boolean
  cutoff: number
  /** resultitem: 1-based rank and column of the one object answered. */
  rank: number
  column: number
  /** options: list the facet's options without its own filter. */
  multiselect: boolean
  /** False when the request left count out: a facet's options are then all listed. */
  countGiven: boolean
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min: number, max = Infinity): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `${min} or more` : `from ${min} to ${max}`
    throw badRequest(`Option ${name} must be a whole number ${range}, not ${value}`)
  }
  return value
}

/** The API description route takes `config` only, as the client libraries send it. */
export function resolveDescriptionConfig(options: QueryOptions, workspace: string, configs: RankingConfig[]): RankingConfig {
  for (const name in options) {
    // Options the service does not know (`extra`, e.g. dev_version=master) are ignored here as on the query route.
    if (name !== 'config' && name !== 'extra' && options[name as keyof QueryOptions] !== undefined) {
      throw badRequest(`Option ${name} does not apply to the API description; only config does`)
    }
  }
  return configOf(options, workspace, configs)
}

function configOf(options: QueryOptions, workspace: string, configs: RankingConfig[]): RankingConfig {
  const configName = options.config ?? 'default'
  const config = configs.find((candidate) => candidate.name === configName)
  if (!config) throw new ServiceError(404, `No such workspace configuration: ${workspace}/${configName}`)
  return config
}

/**
 * Checks, in order: the response type takes every option given (400 naming
 * both), the configuration exists (404), then each option's bounds (400).
 */
export function resolveOptions(options: QueryOptions, responseType: ResponseType, workspace: string, configs: RankingConfig[]): ResolvedOptions {
  const misplaced = misplacedOptions({ responseType, options })
  if (misplaced.length > 0) throw badRequest(misplaced.map((name) => misplacedOptionMessage(name, responseType)).join('; '))
  const config = configOf(options, workspace, configs)
  const format = options.format ?? 'json'
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw badRequest(`Option format "${format}" is unknown (known: ${FORMATS.join(', ')})`)
  }
  const cutoff = options.cutoff ?? 0
  if (!(cutoff >= 0 && cutoff <= 1)) throw badRequest(`Option cutoff must be a number from 0 to 1, not ${cutoff}`)
  return {
    config,
    count: wholeNumber('count', options.count, 10, COUNT_MIN, COUNT_MAX),
    offset: wholeNumber('offset', options.offset, 0, 0),
    format: format as Format,
    level: wholeNumber('level', options.level, 1, 0),
    homogeneousArrays: options.homogeneousArrays ?? false,
    cutoff,
    rank: wholeNumber('rank', options.rank, 1, 1),
    column: wholeNumber('column', options.column, 1, 1),
    multiselect: options.multiselect ?? false,
    countGiven: options.count !== undefined,
  }
}
