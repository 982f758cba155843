import type { QueryOptions, QueryRequest, ResponseType, Step } from './model'
import { setEntry } from './records'
import { optionApplies } from './response-types'

/** What the chain editor and its options form hold: everything a request is built from, apart from its type and page. */
export interface RequestForm {
  workspace: string
  api: string
  /** The version segment to send, if any (a pasted URL's, else the connection's). */
  version: string | undefined
  /** The configuration chosen; always sent, as the official clients send it (empty: `default`). */
  config: string
  /** The steps as sent: disabled steps and empty optional parameters already left out. */
  steps: readonly Step[]
  format: string
  level: number | null
  homogeneousArrays: boolean
  cutoff: number | null
  rank: number
  column: number
  /** options/<facet>: the facet options endpoint asked, and whether as for a multiple selection. */
  facet: string
  multiselect: boolean
  /** Options this client does not know (`dev_version=master`), name → value in the user's order: sent as written with every type. */
  extra?: Readonly<Record<string, string>> | undefined
}

/**
 * Every option the form sets, then only those the response type takes: the
 * embedded service refuses the others. `config` always goes, `default`
 * included, as the official clients send it; then the unknown ones, as written.
 */
export function formOptions(form: RequestForm, responseType: ResponseType, pageOffset: number, pageSize: number, withFormat: boolean): QueryOptions {
  const all: QueryOptions = {}
  all.config = form.config || 'default'
  all.count = Number(pageSize)
  if (pageOffset > 0) all.offset = pageOffset
  if (withFormat && form.format !== 'json') all.format = form.format
  if (form.level !== null) all.level = form.level
  if (form.homogeneousArrays) all.homogeneousArrays = true
  if (form.cutoff !== null) all.cutoff = form.cutoff
  all.rank = Number(form.rank) || 1
  all.column = Number(form.column) || 1
  const out: QueryOptions = {}
  for (const [name, value] of Object.entries(all) as [keyof QueryOptions, never][]) {
    if (optionApplies(name, responseType)) out[name] = value
  }
  const extra = form.extra
  if (extra) {
    // Copied, as the steps are: the request shares nothing with the form.
    for (const name in extra) {
      if (Object.hasOwn(extra, name)) setEntry((out.extra ??= {}), name, extra[name]!)
    }
  }
  return out
}

/**
 * The request the form describes, at a page; the steps are copied, so the
 * request shares nothing with the form. The grid always asks for JSON
 * (`withFormat` false), the URL box shows the chosen format.
 */
export function formRequest(form: RequestForm, responseType: ResponseType, pageOffset: number, pageSize: number, withFormat: boolean): QueryRequest {
  const built: QueryRequest = {
    workspace: form.workspace,
    api: form.api,
    steps: form.steps.map((step) => structuredClone(step)),
    responseType,
    options: formOptions(form, responseType, pageOffset, pageSize, withFormat),
  }
  if (form.version) built.version = form.version
  if (responseType === 'options') {
    // The chain as it stands, the facet's own filter included: the answer then names the options selected
    // (as the client libraries ask a facet's options), and Multiselect counts the others beside them.
    // Every option is listed: the page size is for rows.
    built.facet = form.facet
    delete built.options.count
    delete built.options.offset
    if (form.multiselect) built.options.multiselect = true
    else delete built.options.multiselect
  }
  return built
}
