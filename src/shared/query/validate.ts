import type { ApiDescription, EndpointDescription } from '../api-description'
import { FORMATS, OPTION_ORDER, isEndpointStep, type OptionName, type QueryRequest } from './model'
import { hasEntry } from './records'
import { OPTIONS_BY_TYPE, misplacedOptionMessage, sortMisplaced, toleratedOptionMessage } from './response-types'
import { parseFilterValue, parseTupleList } from './tuple'
import { VERSION_PATTERN, encodeEndpointName } from './url'

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

const SURROGATE = /[\uD800-\uDFFF]/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Why a name or value cannot travel as one path segment, or null. `.` and
 * `..` are dot segments: every URL parser on the way (undici, browsers)
 * resolves them, even percent-encoded, so the service would see another
 * path. A lone surrogate has no UTF-8 form, so it cannot be percent-encoded.
 */
export function segmentProblem(text: string): string | null {
  if (text === '.' || text === '..') return `"${text}" cannot be sent: URL normalisation removes "." and ".." path segments`
  // The exact test (with look-behind) only for text that holds a surrogate at all.
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) return 'it holds an unpaired surrogate, which has no UTF-8 form and cannot be percent-encoded'
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
  // The app checks every request before it sends it, and nearly all are fine.
  if (!context.description && isPlainRequest(request)) return []
  return validateRequestInFull(request, context)
}

/**
 * True for a request that certainly breaks none of the rules checked without
 * an API description: every name and value non-blank, not "." or "..", with
 * no surrogate at all; endpoint steps only, at least one; options within
 * their bounds and taken by the response type. It is stricter than the full
 * check (a request it turns down may still be valid), never looser: a test
 * holds the two together. One small loop, where the full check writes every
 * field path and label it might need.
 */
export function isPlainRequest(request: QueryRequest): boolean {
  if (request.version !== undefined && !VERSION_PATTERN.test(request.version)) return false
  if (!plainText(request.workspace) || !plainText(request.api)) return false
  if (request.responseType === 'options' || request.facet !== undefined) return false
  const steps = request.steps
  if (steps.length === 0) return false
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!
    if (!isEndpointStep(step) || !plainText(step.endpoint)) return false
    const parameters = step.parameters
    for (const name in parameters) {
      if (!Object.hasOwn(parameters, name) || !plainText(name) || !plainText(parameters[name]!)) return false
    }
  }
  const allowed = OPTIONS_BY_TYPE[request.responseType]
  const options = request.options
  for (const key in options) {
    const name = key as OptionName
    const value = options[name]
    if (value === undefined) continue
    if (!allowed.includes(name)) return false
    switch (name) {
      case 'count':
        if (!(isWholeNumber(value as number) && (value as number) >= COUNT_MIN && (value as number) <= COUNT_MAX)) return false
        break
      case 'offset':
      case 'level':
        if (!(isWholeNumber(value as number) && (value as number) >= 0)) return false
        break
      case 'rank':
      case 'column':
        if (!(isWholeNumber(value as number) && (value as number) >= 1)) return false
        break
      case 'cutoff':
        if (!((value as number) >= 0 && (value as number) <= 1)) return false
        break
      case 'config':
        if (!plainText(value as string)) return false
        break
      case 'format':
        if (!(FORMATS as readonly string[]).includes(value as string)) return false
        if (request.responseType === 'results,count' && value !== 'json') return false
        break
      case 'homogeneousArrays':
      case 'multiselect':
        break
      default:
        return false
    }
  }
  return true
}

/** Not blank (a visible ASCII character at least), no surrogate, not a dot segment; one pass, no regex. */
function plainText(text: string): boolean {
  let visible = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdfff) return false
    if (code > 0x20 && code < 0x7f) visible = true
  }
  return visible && text !== '.' && text !== '..'
}

/** Every check, each problem worded; `validateRequest` without its fast path. */
export function validateRequestInFull(request: QueryRequest, context: ValidationContext = {}): Problem[] {
  const problems: Problem[] = []
  const add = (field: string, message: string) => problems.push({ field, message })
  const description = context.description ?? null
  const byName = description ? new Map(description.endpoints.map((endpoint) => [endpoint.name, endpoint])) : null
  // Every request the app sends is checked first, and nearly all are fine:
  // labels and field paths are only written for a problem found.
  const checkSegment = (field: string, what: () => string, text: string) => {
    const problem = segmentProblem(text)
    if (problem) add(field, `${what()}: ${problem}`)
  }

  if (request.version !== undefined && !VERSION_PATTERN.test(request.version)) {
    add('version', `Version "${request.version}" must be digits separated by dots, such as 4 or 4.1`)
  }
  if (request.workspace.trim() === '') add('workspace', 'Workspace name must not be empty')
  else checkSegment('workspace', () => 'Workspace name', request.workspace)
  if (request.api.trim() === '') add('api', 'API name must not be empty')
  else checkSegment('api', () => 'API name', request.api)

  let endpoints = 0
  let lastEndpoint: EndpointDescription | undefined
  const steps = request.steps
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!
    const at = () => `steps[${index}]`
    if (!isEndpointStep(step)) {
      let empty = true
      for (const name in step.context) {
        if (!hasEntry(step.context, name)) continue
        empty = false
        const value = step.context[name]!
        const label = () => `${stepLabel(index)}: context parameter "${name}"`
        if (name === '') add(`${at()}.context`, `${stepLabel(index)}: context parameter name must not be empty`)
        else checkSegment(`${at()}.context.${name}`, () => `${label()} name`, name)
        if (value === '' && name !== '' && !context.allowEmptyValues) {
          add(`${at()}.context.${name}`, `${label()} has an empty value; the service cannot receive an empty value`)
        } else if (value !== '') checkSegment(`${at()}.context.${name}`, () => `${label()} value`, value)
      }
      if (empty) add(at(), `${stepLabel(index)}: a context step needs at least one parameter`)
      continue
    }
    endpoints += 1
    const label = () => stepLabel(index, step.endpoint)
    const blank = step.endpoint.trim() === ''
    if (blank) add(`${at()}.endpoint`, `${stepLabel(index)}: endpoint name must not be empty`)
    else checkSegment(`${at()}.endpoint`, () => `${label()}: endpoint name`, step.endpoint)
    const known = byName?.get(step.endpoint)
    if (description && !blank && !known) {
      add(`${at()}.endpoint`, `${label()}: the API "${description.api}" has no endpoint named "${step.endpoint}"`)
    }
    if (known && endpoints > 1 && !known.stackable) {
      add(`${at()}.endpoint`, `${label()}: endpoint "${known.name}" is not stackable, so it must be the first endpoint`)
    }
    for (const name in step.parameters) {
      if (!hasEntry(step.parameters, name)) continue
      const value = step.parameters[name]!
      const field = () => `${at()}.parameters.${name}`
      if (name === '') add(`${at()}.parameters`, `${label()}: parameter name must not be empty`)
      else if (segmentProblem(name)) checkSegment(field(), () => `${label()}: parameter "${name}" name`, name)
      if (value === '' && name !== '' && !context.allowEmptyValues) {
        add(field(), `${label()}: parameter "${name}" has an empty value; the service cannot receive an empty value`)
      } else if (value !== '' && segmentProblem(value)) checkSegment(field(), () => `${label()}: parameter "${name}" value`, value)
      if (!known || name === '') continue
      const described = known.parameters.find((parameter) => parameter.name === name)
      if (!described) {
        const names = known.parameters.map((parameter) => parameter.name)
        add(field(), `${label()}: endpoint "${known.name}" has no parameter "${name}"${names.length ? ` (it has: ${names.join(', ')})` : ' (it takes none)'}`)
      } else if (described.type === 'TUPLE_LIST' && value !== '') {
        // A facet filter also takes one bare option id, as the client libraries send a single selection.
        const facetFilter = known.kind === 'facet-filter'
        const tuples = facetFilter ? parseFilterValue(value) : parseTupleList(value)
        if (!tuples.ok) {
          const form = facetFilter ? 'an option id or tuple notation such as 1("Europe")' : 'in tuple notation such as 1("Europe")'
          add(field(), `${label()}: parameter "${name}" must be ${form}: ${tuples.error.message}`)
        }
      }
    }
    if (known) {
      for (const parameter of known.parameters) {
        if (parameter.required && !hasEntry(step.parameters, parameter.name)) {
          add(`${at()}.parameters.${parameter.name}`, `${label()}: parameter "${parameter.name}" is required`)
        }
      }
    }
    lastEndpoint = known
  }
  const facetProblem = checkFacet(request, description, endpoints)
  if (facetProblem) add('facet', facetProblem)
  // The facet options endpoint of `options/<facet>` is the request's endpoint when the chain has none.
  if (endpoints === 0 && request.responseType !== 'options') add('steps', 'The request needs at least one endpoint step')

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
  for (const name of ['rank', 'column'] as const) {
    const value = options[name]
    if (value !== undefined && (!isWholeNumber(value) || value < 1)) add(`options.${name}`, `Option ${name} must be a whole number, 1 or more, not ${value}`)
  }
  checkExtra(options.extra, add)
  const misplaced = sortMisplaced(request).refused
  if (options.format !== undefined && !misplaced.includes('format')) {
    if (!(FORMATS as readonly string[]).includes(options.format)) {
      add('options.format', `Option format "${options.format}" is unknown (known: ${FORMATS.join(', ')})`)
    } else if (request.responseType === 'results,count' && options.format !== 'json') {
      add('options.format', `Option format ${options.format} is not available for results,count, whose answer is a JSON array; use results for ${options.format}`)
    } else if (options.format === 'rdf' && lastEndpoint && !isTripleOutput(lastEndpoint)) {
      add(
        'options.format',
        `Option format rdf needs an endpoint whose output is [STRING,STRING,STRING]; "${lastEndpoint.name}" gives [${lastEndpoint.output.join(',')}]`,
      )
    }
  }
  for (const name of misplaced) add(`options.${name}`, misplacedOptionMessage(name, request.responseType))
  return problems
}

/**
 * Options this client does not know travel as written, after the known ones:
 * each needs a name, and one that is a known option's belongs in that option
 * (else the URL would say it twice). Text without a UTF-8 form cannot be sent.
 */
function checkExtra(extra: Record<string, string> | undefined, add: (field: string, message: string) => void): void {
  if (!extra) return
  for (const name in extra) {
    if (!hasEntry(extra, name)) continue
    const value = extra[name]!
    if (name.trim() === '') add('options.extra', 'An option this client does not know needs a name (it is sent as name=value)')
    else if ((OPTION_ORDER as readonly string[]).includes(name)) add(`options.extra.${name}`, `Option ${name} is one this client knows: set it as options.${name}, not among the others`)
    else if (LONE_SURROGATE.test(name)) add(`options.extra.${name}`, `Option "${name}": its name holds an unpaired surrogate, which cannot be percent-encoded`)
    if (LONE_SURROGATE.test(value)) add(`options.extra.${name}`, `Option "${name}": its value holds an unpaired surrogate, which cannot be percent-encoded`)
  }
}

/**
 * What is sent although the seed does not say so, for the user to know: an
 * option the seed does not give this response type but the official clients
 * send with it, and each option this client does not know (sent as written).
 * Never a reason not to send; `validateRequest` holds the reasons.
 */
export function requestWarnings(request: Pick<QueryRequest, 'responseType' | 'options'>): Problem[] {
  const warnings: Problem[] = []
  for (const name of sortMisplaced(request).tolerated) {
    warnings.push({ field: `options.${name}`, message: toleratedOptionMessage(name, request.responseType) })
  }
  const extra = request.options.extra
  if (extra) {
    for (const name in extra) {
      if (hasEntry(extra, name) && name.trim() !== '' && !(OPTION_ORDER as readonly string[]).includes(name)) {
        warnings.push({ field: `options.extra.${name}`, message: `Option ${name} is not one the seed defines: it is sent as written, and a deployment that does not use it ignores it` })
      }
    }
  }
  return warnings
}

/**
 * `options/<facet>` needs a facet, and only that response type may carry
 * one. With a description, the facet must be a facet options endpoint of the
 * API, stackable on the chain before it.
 */
function checkFacet(request: QueryRequest, description: ApiDescription | null, chainEndpoints: number): string | null {
  const { facet } = request
  if (request.responseType !== 'options') {
    return facet === undefined ? null : `facet "${facet}" belongs to response type options only, not to ${request.responseType}; leave it out`
  }
  if (facet === undefined || facet.trim() === '') return 'Response type options needs the facet options endpoint whose options are asked for (facet)'
  const problem = segmentProblem(facet)
  if (problem) return `Facet name: ${problem}`
  if (!description) return null
  const known = description.endpoints.find((endpoint) => endpoint.name === facet)
  if (!known) return `The API "${description.api}" has no endpoint named "${facet}" to list options of`
  if (known.kind !== 'facet-options') {
    return `Endpoint "${facet}" is a ${known.kind} endpoint, not a facet options endpoint, so /options/${encodeEndpointName(facet)} cannot be asked`
  }
  if (chainEndpoints > 0 && !known.stackable) return `Facet "${facet}" is not stackable, so its options can only be asked with no endpoint before it`
  return null
}
