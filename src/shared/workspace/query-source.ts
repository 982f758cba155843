import { z } from 'zod'
import { QueryRequestSchema, type QueryRequest } from '../query/model'

/**
 * What a test case runs, and what a query set's template is: a saved query
 * of the same file by name, or a request of its own on one of the file's
 * connections. One rule and one lookup for both, so a case and a set read
 * and resolve their query the same way.
 */
export const querySourceFields = {
  /** A saved query of the same file, by name… */
  query: z.string().min(1).max(200).optional(),
  /** …or a request of its own, on one of the file's connections. */
  connection: z.string().min(1).max(200).optional(),
  request: QueryRequestSchema.optional(),
}

export interface QuerySource {
  query?: string | undefined
  connection?: string | undefined
  request?: QueryRequest | undefined
}

/**
 * What breaks the rule, for the holder's schema to add as issues: `noun`
 * names the holder ("a test case"), `named` how it names a saved query
 * ("names a saved query as its template").
 */
export function querySourceProblems(source: QuerySource, noun: string, named: string): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = []
  if ((source.query === undefined) === (source.request === undefined)) {
    problems.push({ path: ['query'], message: `${noun} ${named} ("query") or has its own "request", one of the two` })
  }
  if (source.request !== undefined && source.connection === undefined) {
    problems.push({ path: ['connection'], message: `${noun} with its own request names its connection` })
  }
  return problems
}

/** The request the source runs and the file connection it belongs to; undefined when its saved query is not in the file. */
export function findQuerySource(
  workspace: { queries: { name: string; connection: string; request: QueryRequest }[] },
  source: QuerySource,
): { connection: string | null; request: QueryRequest } | undefined {
  if (source.request) return { connection: source.connection ?? null, request: source.request }
  return workspace.queries.find((query) => query.name === source.query)
}
