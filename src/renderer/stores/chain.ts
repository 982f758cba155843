import { defineStore } from 'pinia'
import { computed, nextTick, ref, toRaw, watch } from 'vue'
import type { ApiDescription } from '../../shared/api-description'
import {
  conformedToDescription,
  editorSteps,
  moveStep as moved,
  problemsOfStep,
  sentSteps,
  withFacetSelection,
  withoutEmptyOptional,
  type EditorStep,
} from '../../shared/chain/editor-chain'
import type { FacetSelection } from '../../shared/query/facets'
import { formRequest, type RequestForm } from '../../shared/query/form-request'
import type { QueryRequest, ResponseType, Step } from '../../shared/query/model'
import { readPastedUrl } from '../../shared/query/pasted-url'
import { setEntry } from '../../shared/query/records'
import { buildUrl, rootMemo, sentVersion } from '../../shared/query/url'
import type { Problem } from '../../shared/query/validate'
import { useConnectionsStore } from './connections'

export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 10

let nextStepId = 0
const newId = () => `step-${++nextStepId}`

/** One option this client does not know, as the Options panel edits it: a row keeps its place while its name is being typed. */
export interface ExtraOptionRow {
  id: string
  name: string
  value: string
}

/** The rows as sent: a row with neither name nor value is one being added; a blank name with a value is sent for validation to name. */
export function extraOptionsOf(rows: readonly ExtraOptionRow[]): Record<string, string> | undefined {
  let extra: Record<string, string> | undefined
  for (const row of rows) {
    if (row.name.trim() === '' && row.value === '') continue
    setEntry((extra ??= {}), row.name.trim() === '' ? '' : row.name, row.value)
  }
  return extra
}

/** The chain being edited and its options: what the next request will be. */
export const useChainStore = defineStore('chain', () => {
  const connections = useConnectionsStore()

  const chain = ref<EditorStep[]>([{ id: newId(), enabled: true, step: { endpoint: '', parameters: {} } }])
  const count = ref<number>(DEFAULT_PAGE_SIZE)
  const level = ref<number | null>(null)
  const homogeneousArrays = ref(false)
  const cutoff = ref<number | null>(null)
  const format = ref<string>('json')
  /** A version segment read from a pasted URL; otherwise the connection's own. */
  const version = ref<string | undefined>(undefined)
  /** What the next run asks for (the "Response type" picker); the rows types show in the grid. */
  const responseType = ref<ResponseType>('results')
  /** options/<facet>: the facet options endpoint asked, and whether as for a multiple selection. */
  const facet = ref('')
  const multiselect = ref(false)
  /** Options this client does not know (`dev_version=master`): kept from a pasted URL or typed, sent as written after the known ones. */
  const extraOptions = ref<ExtraOptionRow[]>([])
  /** resultitem: the 1-based rank and tuple column of the object asked. */
  const rank = ref(1)
  const column = ref(1)
  /** Offset the next request (and the URL box) uses: the page shown, back to 0 when the chain changes. */
  const offset = ref(0)
  /** What is wrong with the chain, by step and field: found when Run checks it, or named by the service. */
  const problems = ref<Problem[]>([])

  const steps = computed<Step[]>(() => withoutEmptyOptional(sentSteps(chain.value), connections.description))

  /** The form as it stands, with the connection's workspace, API, configuration and version. */
  function form(): RequestForm {
    const connection = connections.selected
    return {
      workspace: connection?.workspace ?? '',
      api: connections.api,
      version: sentVersion(version.value, connection?.version),
      config: connections.config,
      steps: steps.value.map((step) => toRaw(step)),
      format: format.value,
      level: level.value,
      homogeneousArrays: homogeneousArrays.value,
      cutoff: cutoff.value,
      rank: rank.value,
      column: column.value,
      facet: facet.value,
      multiselect: multiselect.value,
      extra: extraOptionsOf(extraOptions.value),
    }
  }

  /** The request for the chain as it stands; the grid always asks for JSON, the URL box shows the chosen format. */
  function request(type: ResponseType, pageOffset = offset.value, pageSize = count.value, withFormat = false): QueryRequest {
    return formRequest(form(), type, pageOffset, pageSize, withFormat)
  }

  /** Rewritten on every edit of the chain, for the same API almost always. */
  const root = rootMemo()
  /** The request URL for the chain (never a token: buildUrl writes none); empty when it cannot be written yet. */
  const requestUrl = computed(() => {
    const connection = connections.selected
    if (!connection) return ''
    try {
      return buildUrl(connection.queryUrl, request(responseType.value, offset.value, count.value, true), root)
    } catch {
      return ''
    }
  })

  // Editing the chain.
  function setChain(next: EditorStep[]): void {
    chain.value = next
  }
  function addEndpointStep(): void {
    chain.value = [...chain.value, { id: newId(), enabled: true, step: { endpoint: '', parameters: {} } }]
  }
  function addContextStep(): void {
    chain.value = [...chain.value, { id: newId(), enabled: true, step: { context: { '': '' } } }]
  }
  /** An edited card's problems go with the edit (the next Run checks it again): "Step 2 is empty" must not stay beside the endpoint typed. */
  function updateStep(index: number, step: Step): void {
    chain.value = chain.value.map((entry, i) => (i === index ? { ...entry, step } : entry))
    if (problems.value.length > 0) problems.value = problems.value.filter((problem) => problemsOfStep([problem], index).length === 0)
  }
  /** Gives steps typed before the API description arrived the parameters it describes. */
  function conformToDescription(description: ApiDescription | null): void {
    chain.value = conformedToDescription(chain.value, description)
  }
  function removeStep(index: number): void {
    chain.value = chain.value.filter((_, i) => i !== index)
  }
  function moveStep(from: number, to: number): void {
    chain.value = moved(chain.value, from, to)
  }
  function setStepEnabled(index: number, enabled: boolean): void {
    chain.value = chain.value.map((entry, i) => (i === index ? { ...entry, enabled } : entry))
  }
  function setFacetSelection(facetName: string, selected: readonly FacetSelection[]): void {
    chain.value = withFacetSelection(chain.value, facetName, selected, newId)
  }

  // The options this client does not know, row by row.
  function addExtraOption(): string {
    const id = newId()
    extraOptions.value = [...extraOptions.value, { id, name: '', value: '' }]
    return id
  }
  function updateExtraOption(id: string, change: Partial<Pick<ExtraOptionRow, 'name' | 'value'>>): void {
    extraOptions.value = extraOptions.value.map((row) => (row.id === id ? { ...row, ...change } : row))
  }
  function removeExtraOption(id: string): void {
    extraOptions.value = extraOptions.value.filter((row) => row.id !== id)
  }

  /**
   * Replaces the chain and options with a pasted request URL, made against
   * this connection's query URL or any other (a colleague's, the demo on
   * another port). Only the chain and options are taken: Run sends them to
   * the current connection's query URL with its account, never to the pasted
   * URL's host. Nothing changes unless the whole URL reads; the reason comes
   * back otherwise, and a note when the URL came from elsewhere.
   */
  async function replaceFromUrl(text: string): Promise<{ ok: true; note: string | null } | { ok: false; message: string }> {
    const connection = connections.selected
    if (!connection) return { ok: false, message: 'Choose a connection first: the URL runs on it.' }
    const parsed = readPastedUrl(text, connection)
    if (!parsed.ok) {
      const { segment, message } = parsed.error
      return { ok: false, message: segment && !message.includes(segment) ? `At "${segment}": ${message}.` : `${capitalise(message)}.` }
    }
    const { request: pasted, note } = parsed.value
    await loadRequest(pasted)
    return { ok: true, note }
  }

  /**
   * The editor still holds what a start leaves: one step with no value typed
   * and no option of its own. The last session's draft comes back only then;
   * a URL pasted or a value typed while it was on its way is newer.
   */
  const pristine = computed(() => {
    const only = chain.value.length === 1 ? chain.value[0]!.step : null
    const values = only ? Object.values('endpoint' in only ? only.parameters : only.context) : ['']
    return values.every((value) => value === '') && extraOptions.value.length === 0
  })

  /** True while loadRequest puts a request in place: a new configuration it sets is not a reason to run. */
  const loading = ref(false)

  /**
   * Puts a request model into the editor (its API, chain, response type,
   * options and version) on the current connection, and runs nothing: a
   * pasted URL, a run from History, a saved query, the draft of the last session.
   */
  async function loadRequest(loaded: QueryRequest): Promise<void> {
    loading.value = true
    try {
      if (loaded.api && loaded.api !== connections.api) {
        connections.api = loaded.api
        await connections.describe()
      }
      const { options: o } = loaded
      chain.value = editorSteps(loaded.steps, newId)
      version.value = loaded.version !== connections.selected?.version ? loaded.version : undefined
      count.value = o.count ?? DEFAULT_PAGE_SIZE
      level.value = o.level ?? null
      homogeneousArrays.value = o.homogeneousArrays ?? false
      cutoff.value = o.cutoff ?? null
      format.value = o.format ?? 'json'
      responseType.value = loaded.responseType
      facet.value = loaded.facet ?? facet.value
      rank.value = o.rank ?? 1
      column.value = o.column ?? 1
      multiselect.value = o.multiselect ?? false
      extraOptions.value = Object.entries(o.extra ?? {}).map(([name, value]) => ({ id: newId(), name, value }))
      connections.config = o.config ?? 'default'
      // The watcher below sees the new chain and would start from page 1: it takes this offset instead.
      pastedOffset = o.offset ?? 0
      offset.value = pastedOffset
      problems.value = []
      // The watchers that react to these changes run before this resolves, while `loading` still says why.
      await nextTick()
    } finally {
      loading.value = false
    }
  }

  // A changed chain or option starts again from the first page (a pasted URL from its own offset).
  let pastedOffset: number | null = null
  watch([chain, count, level, homogeneousArrays, cutoff, responseType, extraOptions], () => {
    offset.value = pastedOffset ?? 0
    pastedOffset = null
  }, { deep: true })

  return {
    chain, steps, count, level, homogeneousArrays, cutoff, format, version, offset, responseType, facet, multiselect, rank, column, problems,
    extraOptions, request, requestUrl,
    setChain, addEndpointStep, addContextStep, updateStep, conformToDescription, removeStep, moveStep, setStepEnabled, setFacetSelection,
    addExtraOption, updateExtraOption, removeExtraOption,
    replaceFromUrl, loadRequest, loading, pristine,
  }
})

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
