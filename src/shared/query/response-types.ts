import { OPTION_ORDER, RESPONSE_TYPES, type OptionName, type QueryRequest, type ResponseType } from './model'

/**
 * Which request options each response type takes (SERVICE-CONTRACT
 * "Options"), shared by validation and the embedded service so that both
 * refuse a misplaced option with the same sentence.
 *
 * `config` applies everywhere. The page options (`count`, `offset`) apply to
 * every type that answers a list: results, both result pages and a facet's
 * options. `format`, `level` and `homogeneousArrays` shape result
 * descriptions, so they belong to `results` and `results,count` (whose JSON
 * array admits `format=json` only). `cutoff` filters results, so it applies
 * to every type built from them except a facet's options, which are counts.
 * `rank` and `column` pick one result object; `multiselect` is about facets.
 */
export const OPTIONS_BY_TYPE: Readonly<Record<ResponseType, readonly OptionName[]>> = {
  results: ['config', 'count', 'offset', 'format', 'level', 'homogeneousArrays', 'cutoff'],
  'results,count': ['config', 'count', 'offset', 'format', 'level', 'homogeneousArrays', 'cutoff'],
  statistics: ['config', 'cutoff'],
  count: ['config', 'cutoff'],
  resultpage: ['config', 'count', 'offset', 'cutoff'],
  resultitem: ['config', 'rank', 'column', 'cutoff'],
  options: ['config', 'count', 'offset', 'multiselect'],
}

/**
 * The options the official client libraries send with each type beyond the
 * seed's table above (`OptionsMap` in the TypeScript client's types.ts: its
 * `count`/`offset` go with every list type, statistics and count included,
 * and `multiselect` with resultitem). A real deployment ignores an option it
 * does not use, so the client sends these and warns; the embedded service
 * keeps the seed's table and refuses them.
 */
export const CLIENT_ONLY_OPTIONS_BY_TYPE: Readonly<Record<ResponseType, readonly OptionName[]>> = {
  results: [],
  'results,count': [],
  statistics: ['count', 'offset'],
  count: ['count', 'offset'],
  resultpage: [],
  resultitem: ['multiselect'],
  options: [],
}

/** How each type is written as the end of a path, for messages and help. */
export function responseTypeLabel(type: ResponseType): string {
  return type === 'options' ? 'options/<facet>' : type
}

export const RESPONSE_TYPE_LABELS: readonly string[] = RESPONSE_TYPES.map(responseTypeLabel)

/** Whether the type takes the option; options the client does not know (`extra`) go with every type, as written. */
export function optionApplies(name: OptionName | 'extra', type: ResponseType): boolean {
  return name === 'extra' || OPTIONS_BY_TYPE[type].includes(name)
}

function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/** "Option rank applies to resultitem only, not to results": names the option, where it belongs and the type asked for. */
export function misplacedOptionMessage(name: OptionName, type: ResponseType): string {
  const types = RESPONSE_TYPES.filter((candidate) => OPTIONS_BY_TYPE[candidate].includes(name))
  const where = types.length === 1 ? `${types[0]} only` : listed(types)
  return `Option ${name} applies to ${where}, not to ${type}`
}

const NONE: readonly OptionName[] = Object.freeze([])

/** The options a request sets that its response type does not take, in canonical order. */
export function misplacedOptions(request: Pick<QueryRequest, 'responseType' | 'options'>): readonly OptionName[] {
  const allowed = OPTIONS_BY_TYPE[request.responseType]
  // Every request is checked before it is sent: the usual answer, none, allocates nothing.
  let any = false
  for (const name in request.options) {
    if (name !== 'extra' && request.options[name as OptionName] !== undefined && !allowed.includes(name as OptionName)) any = true
  }
  return any ? OPTION_ORDER.filter((name) => request.options[name] !== undefined && !allowed.includes(name)) : NONE
}

/**
 * The misplaced options of a request split in two: those the official
 * clients send with this type (`tolerated`: sent, with a warning) and the
 * rest (`refused`: not sent).
 */
export function sortMisplaced(request: Pick<QueryRequest, 'responseType' | 'options'>): { refused: readonly OptionName[]; tolerated: readonly OptionName[] } {
  const misplaced = misplacedOptions(request)
  if (misplaced.length === 0) return { refused: NONE, tolerated: NONE }
  const clientOnly = CLIENT_ONLY_OPTIONS_BY_TYPE[request.responseType]
  return { refused: misplaced.filter((name) => !clientOnly.includes(name)), tolerated: misplaced.filter((name) => clientOnly.includes(name)) }
}

/** The warning for an option the seed does not give this type but the official clients send with it. */
export function toleratedOptionMessage(name: OptionName, type: ResponseType): string {
  const types = RESPONSE_TYPES.filter((candidate) => OPTIONS_BY_TYPE[candidate].includes(name))
  return `Option ${name}: the seed says it applies to ${listed(types)}, not to ${type}; the official clients send it with ${type}, so it is sent. A real deployment ignores it; the embedded service refuses it (400)`
}
