import { FORMATS, type Format, type QueryOptions } from '../../shared/query/model'
import { COUNT_MAX, COUNT_MIN } from '../../shared/query/validate'
import { ServiceError, badRequest } from '../service-error'
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
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min: number, max = Infinity): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `${min} or more` : `from ${min} to ${max}`
    throw badRequest(`Option ${name} must be a whole number ${range}, not ${value}`)
  }
  return value
}

export function resolveOptions(options: QueryOptions, workspace: string, configs: RankingConfig[]): ResolvedOptions {
  const configName = options.config ?? 'default'
  const config = configs.find((candidate) => candidate.name === configName)
  if (!config) throw new ServiceError(404, `No such workspace configuration: ${workspace}/${configName}`)
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
  }
}
