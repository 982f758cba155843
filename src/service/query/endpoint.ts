import type { DataType, EndpointKind } from '../../shared/api-description'
import type { DataObject, Dataset } from '../dataset/model'
import type { TextIndex } from '../dataset/text-index'
import { badRequest } from '../refusal'
import type { ResultSet } from './result-set'
import type { WorkBudget } from './work-budget'

/** One endpoint of an API: what the description route shows, and how it runs. */

export interface ParameterSpec {
  name: string
  type: DataType
  required: boolean
  description: string
}

export interface RankingConfig {
  name: string
  /** `text`: relevance only; `text-and-population`: relevance boosted by population. */
  ranking: 'text' | 'text-and-population'
  xml: boolean
}

export interface RunContext {
  dataset: Dataset
  text: TextIndex
  config: RankingConfig
  /** The request's time; long loops and sorts tick it. */
  budget: WorkBudget
}

export interface EndpointDefinition {
  name: string
  kind: EndpointKind
  stackable: boolean
  description: string
  parameters: ParameterSpec[]
  output: DataType[]
  /** Row classes a stacked endpoint takes as input; a first endpoint gets every city. */
  accepts: readonly string[]
  run(input: ResultSet, parameters: Record<string, string>, context: RunContext): ResultSet
  /** Facet options endpoints: the option with this id, wherever it is counted or not (an `options/<facet>` answer's selection). */
  option?(id: string, dataset: Dataset): DataObject | null
  /** Facet options endpoints: the facet's name for people, the `title` of an `options/<facet>` answer. */
  title?: string
}

export function parameterLabel(endpoint: string, name: string): string {
  return `parameter "${name}" of endpoint "${endpoint}"`
}

/** A required text parameter, refused when missing or blank; as given (the endpoint trims what it must). */
export function requiredText(endpoint: string, name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw badRequest(`The ${parameterLabel(endpoint, name)} must not be empty`)
  return value
}

const INTEGER = /^-?\d{1,15}$/

export function integerParameter(endpoint: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!INTEGER.test(value.trim())) throw badRequest(`The ${parameterLabel(endpoint, name)} must be a whole number, not "${value}"`)
  return Number(value.trim())
}

export function oneOfParameter<T extends string>(endpoint: string, name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(`The ${parameterLabel(endpoint, name)} must be one of ${allowed.join(', ')}, not "${value}"`)
  }
  return value as T
}
