import type { ApiDescription, EndpointDescription } from '../api-description'
import { FORMATS, isEndpointStep, type QueryRequest } from './model'
import { hasEntry } from './records'
import { parseTupleList } from './tuple'
import { VERSION_PATTERN } from './url'

/**
 * Checks a request against the rules of the seed and SERVICE-CONTRACT before
 * it is sent, returning every problem at once so a form can mark them all.
 * Each problem names where (`field`) and, in its message, the step and the
 * rule broken.
 *
 * One rule of the issue has no check here: "a parameter given twice on one
 * step with different values". A `parameters` record cannot hold a name
 * twice, so the rule is enforced where text becomes a record: `parseUrl`
 * rejects `/p/a/1/p/a/2`, and `readRequestJson` rejects a JSON object with
 * the key twice. Both messages name the two values.
 */

export interface Problem {
  /** Where: `workspace`, `api`, `version`, `steps[2].endpoint`, `steps[2].parameters.query`, `options.count`… */
  field: string
  message: string
}

export interface ValidationContext {
  /** When known, endpoint names, parameters, stackability and outputs are checked too. */
  description?: ApiDescription | null
  /** Only for a server known to support empty segments. */
  allowEmptyValues?: boolean
}

export const COUNT_MIN = 1
export const COUNT_MAX = 100
export const RESULTS_ONLY_OPTIONS = ['count', 'offset', 'format', 'level', 'homogeneousArrays'] as const

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Why a name or value cannot travel as one path segment, or null. `.` and
 * `..` are dot segments: every URL parser on the way (undici, browsers)
 * resolves them, even percent-encoded, so the service would see another
 * path. A lone surrogate has no UTF-8 form, so it cannot be percent-encoded.
 */
export function segmentProblem(text: string): string | null {
  if (text === '.' || text === '..') return `"${text}" cannot be sent: URL normalisation removes "." and ".." path segments`
  if (LONE_SURROGATE.test(text)) return 'it holds an unpaired surrogate, which has no UTF-8 form and cannot be percent-encoded'
  return null
}

function stepLabel(index: number, endpoint?: string): string {
  return endpoint ? `Step ${index + 1} (${endpoint})` : `Step ${index + 1}`
}

function isTripleOutput(endpoint: EndpointDescription): boolean {
  return endpoint.output.length === 3 && endpoint.output.every((type) => type === 'STRING')
}

function isWholeNumber(value: number): boolean {
  return Number.isInteger(value)
}

export function validateRequest(request: QueryRequest, context: ValidationContext = {}): Problem[] {
  const problems: Problem[] = []
  const add = (field: string, message: string) => problems.push({ field, message })
  const description = context.description ?? null
  const byName = new Map(description?.endpoints.map((endpoint) => [endpoint.name, endpoint]) ?? [])
  const checkSegment = (field: string, what: string, text: string) => {
    const problem = segmentProblem(text)
    if (problem) add(field, `${what}: ${problem}`)
  }

  if (request.version !== undefined && !VERSION_PATTERN.test(request.version)) {
    add('version', `Version "${request.version}" must be digits separated by dots, such as 4 or 4.1`)
  }
  if (request.workspace.trim() === '') add('workspace', 'Workspace name must not be empty')
  else checkSegment('workspace', 'Workspace name', request.workspace)
  if (request.api.trim() === '') add('api', 'API name must not be empty')
  else checkSegment('api', 'API name', request.api)

  let endpoints = 0
  let lastEndpoint: EndpointDescription | undefined
  for (const [index, step] of request.steps.entries()) {
    const at = `steps[${index}]`
    if (!isEndpointStep(step)) {
      const entries = Object.entries(step.context)
      if (entries.length === 0) add(at, `${stepLabel(index)}: a context step needs at least one parameter`)
      for (const [name, value] of entries) {
        const label = `${stepLabel(index)}: context parameter "${name}"`
        if (name === '') add(`${at}.context`, `${stepLabel(index)}: context parameter name must not be empty`)
        else checkSegment(`${at}.context.${name}`, `${label} name`, name)
        if (value === '' && name !== '' && !context.allowEmptyValues) {
          add(`${at}.context.${name}`, `${label} has an empty value; the service cannot receive an empty value`)
        } else if (value !== '') checkSegment(`${at}.context.${name}`, `${label} value`, value)
      }
      continue
    }
    endpoints += 1
    const label = stepLabel(index, step.endpoint)
    if (step.endpoint.trim() === '') add(`${at}.endpoint`, `${stepLabel(index)}: endpoint name must not be empty`)
    else checkSegment(`${at}.endpoint`, `${label}: endpoint name`, step.endpoint)
    const known = description ? byName.get(step.endpoint) : undefined
    if (description && step.endpoint.trim() !== '' && !known) {
      add(`${at}.endpoint`, `${label}: the API "${description.api}" has no endpoint named "${step.endpoint}"`)
    }
    if (known && endpoints > 1 && !known.stackable) {
      add(`${at}.endpoint`, `${label}: endpoint "${known.name}" is not stackable, so it must be the first endpoint`)
    }
    for (const [name, value] of Object.entries(step.parameters)) {
      const field = `${at}.parameters.${name}`
      if (name === '') add(`${at}.parameters`, `${label}: parameter name must not be empty`)
      else checkSegment(field, `${label}: parameter "${name}" name`, name)
      if (value === '' && name !== '' && !context.allowEmptyValues) {
        add(field, `${label}: parameter "${name}" has an empty value; the service cannot receive an empty value`)
      } else if (value !== '') checkSegment(field, `${label}: parameter "${name}" value`, value)
      if (!known || name === '') continue
      const described = known.parameters.find((parameter) => parameter.name === name)
      if (!described) {
        const names = known.parameters.map((parameter) => parameter.name)
        add(field, `${label}: endpoint "${known.name}" has no parameter "${name}"${names.length ? ` (it has: ${names.join(', ')})` : ' (it takes none)'}`)
      } else if (described.type === 'TUPLE_LIST' && value !== '') {
        const tuples = parseTupleList(value)
        if (!tuples.ok) add(field, `${label}: parameter "${name}" must be in tuple notation such as 1("Europe"): ${tuples.error.message}`)
      }
    }
    if (known) {
      for (const parameter of known.parameters) {
        if (parameter.required && !hasEntry(step.parameters, parameter.name)) {
          add(`${at}.parameters.${parameter.name}`, `${label}: parameter "${parameter.name}" is required`)
        }
      }
    }
    lastEndpoint = known
  }
  if (endpoints === 0) add('steps', 'The request needs at least one endpoint step')

  const { options } = request
  if (options.config !== undefined) {
    if (options.config.trim() === '') add('options.config', 'Option config must not be empty (leave it unset for "default")')
    else if (LONE_SURROGATE.test(options.config)) add('options.config', 'Option config holds an unpaired surrogate, which cannot be percent-encoded')
    else if (description && !description.configs.includes(options.config)) {
      add('options.config', `Option config: the workspace has no configuration "${options.config}" (it has: ${description.configs.join(', ')})`)
    }
  }
  if (options.count !== undefined && (!isWholeNumber(options.count) || options.count < COUNT_MIN || options.count > COUNT_MAX)) {
    add('options.count', `Option count must be a whole number from ${COUNT_MIN} to ${COUNT_MAX}, not ${options.count}`)
  }
  if (options.offset !== undefined && (!isWholeNumber(options.offset) || options.offset < 0)) {
    add('options.offset', `Option offset must be a whole number, 0 or more, not ${options.offset}`)
  }
  if (options.level !== undefined && (!isWholeNumber(options.level) || options.level < 0)) {
    add('options.level', `Option level must be a whole number, 0 or more, not ${options.level}`)
  }
  if (options.cutoff !== undefined && !(options.cutoff >= 0 && options.cutoff <= 1)) {
    add('options.cutoff', `Option cutoff must be a number from 0 to 1, not ${options.cutoff}`)
  }
  if (options.format !== undefined) {
    if (!(FORMATS as readonly string[]).includes(options.format)) {
      add('options.format', `Option format "${options.format}" is unknown (known: ${FORMATS.join(', ')})`)
    } else if (options.format === 'rdf' && lastEndpoint && !isTripleOutput(lastEndpoint)) {
      add(
        'options.format',
        `Option format rdf needs an endpoint whose output is [STRING,STRING,STRING]; "${lastEndpoint.name}" gives [${lastEndpoint.output.join(',')}]`,
      )
    }
  }
  if (request.responseType !== 'results') {
    for (const name of RESULTS_ONLY_OPTIONS) {
      if (options[name] !== undefined) {
        add(`options.${name}`, `Option ${name} applies to results only, not to ${request.responseType}`)
      }
    }
  }
  return problems
}
