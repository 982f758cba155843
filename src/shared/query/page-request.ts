import type { QueryRequest } from './model'

/** The same request at another page: only `count` and `offset` change. */
export function atPage(base: QueryRequest, pageOffset: number, pageSize: number): QueryRequest {
  const { offset: _offset, ...options } = base.options
  return { ...structuredClone(base), options: { ...structuredClone(options), count: pageSize, ...(pageOffset > 0 ? { offset: pageOffset } : {}) } }
}

/** What identifies a request apart from its page: two requests with the same key page through the same rows. */
export function pagingKey(connectionId: string | null, request: QueryRequest): string {
  const { offset: _offset, count: _count, ...options } = request.options
  return JSON.stringify([connectionId, { ...request, options }])
}
