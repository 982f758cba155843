import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { QueryReply } from '../../shared/ipc/contract'
import type { EndpointStep, QueryRequest, ResponseType } from '../../shared/query/model'
import type { ResultsResponse, StatisticsResponse } from '../../shared/responses'
import { validateRequest } from '../../shared/query/validate'
import { call, errorMessage, ExplorerClientError } from '../api/explorer-client'
import { useConnectionsStore } from './connections'

export const PAGE_SIZES = [10, 25, 50, 100] as const

/** The chain being edited, the page shown, and the answers to it. */
export const useQueryStore = defineStore('query', () => {
  const connections = useConnectionsStore()

  const steps = ref<EndpointStep[]>([{ endpoint: '', parameters: {} }])
  const count = ref(10)
  const offset = ref(0)

  const results = ref<ResultsResponse | null>(null)
  const statistics = ref<StatisticsResponse | null>(null)
  const lastReply = ref<QueryReply | null>(null)
  const running = ref(false)
  const error = ref<string | null>(null)
  const problems = ref<{ field: string; message: string }[]>([])
  let runId: string | null = null

  const page = computed(() => Math.floor(offset.value / count.value) + 1)
  const pageCount = computed(() => (statistics.value ? Math.max(1, Math.ceil(statistics.value.total / count.value)) : null))
  const hasPrevious = computed(() => offset.value > 0)
  const hasNext = computed(() => {
    if (!results.value) return false
    if (statistics.value) return offset.value + count.value < statistics.value.total
    return results.value.items.length >= count.value
  })

  function request(responseType: ResponseType, pageOffset: number): QueryRequest {
    const connection = connections.selected
    return {
      workspace: connection?.workspace ?? '',
      api: connections.api,
      steps: steps.value.map((step) => ({ endpoint: step.endpoint, parameters: { ...step.parameters } })),
      responseType,
      options:
        responseType === 'results'
          ? { config: connections.config, count: Number(count.value), offset: pageOffset }
          : { config: connections.config },
    }
  }

  async function send(responseType: ResponseType, pageOffset: number, id: string): Promise<QueryReply> {
    return call('query:run', {
      connectionId: connections.selectedId ?? '',
      requestId: id,
      request: request(responseType, pageOffset),
    })
  }

  /** Runs the chain from its first page: results and statistics together. */
  async function run(pageOffset = 0, withStatistics = true): Promise<void> {
    if (!connections.selectedId) {
      error.value = 'Choose a connection first.'
      return
    }
    const found = validateRequest(request('results', pageOffset), { description: connections.description })
    if (found.length > 0) {
      error.value = found.map((problem) => problem.message).join('\n')
      problems.value = found
      return
    }
    const id = crypto.randomUUID()
    runId = id
    running.value = true
    error.value = null
    problems.value = []
    try {
      const [resultsReply, statisticsReply] = await Promise.all([
        send('results', pageOffset, id),
        withStatistics ? send('statistics', 0, `${id}:stats`) : Promise.resolve(null),
      ])
      if (runId !== id) return
      results.value = resultsReply.body as ResultsResponse
      lastReply.value = resultsReply
      offset.value = pageOffset
      if (statisticsReply) statistics.value = statisticsReply.body as StatisticsResponse
    } catch (e) {
      if (runId !== id) return
      error.value = errorMessage(e)
      problems.value = e instanceof ExplorerClientError ? (e.error.problems ?? []) : []
    } finally {
      if (runId === id) running.value = false
    }
  }

  async function cancel(): Promise<void> {
    const id = runId
    if (!id) return
    runId = null
    running.value = false
    await Promise.all([call('query:cancel', { requestId: id }), call('query:cancel', { requestId: `${id}:stats` })]).catch(() => undefined)
  }

  /** A new connection or API: answers to the old one would mislead. */
  function reset(): void {
    void cancel()
    results.value = null
    statistics.value = null
    lastReply.value = null
    error.value = null
    problems.value = []
    offset.value = 0
  }

  const nextPage = () => run(offset.value + count.value, false)
  const previousPage = () => run(Math.max(0, offset.value - count.value), false)

  return {
    steps, count, offset, results, statistics, lastReply, running, error, problems,
    page, pageCount, hasPrevious, hasNext, request, run, cancel, reset, nextPage, previousPage,
  }
})
