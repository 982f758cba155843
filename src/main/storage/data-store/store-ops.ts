import type { EvaluationsTable } from './evaluations-table'
import type { ExperimentsTable } from './experiments-table'
import type { HistoryTable } from './history-table'
import type { JudgeCacheTable } from './judge-cache-table'
import type { RatingsTable } from './ratings-table'

/** The data store's tables, as its thread holds them. */
export interface StoreTables {
  history: HistoryTable
  ratings: RatingsTable
  evaluations: EvaluationsTable
  experiments: ExperimentsTable
  judgeCache: JudgeCacheTable
}

/** The names of an object's methods. */
type MethodOf<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string

/**
 * What the main thread may ask of the store's thread: each table's methods
 * by name. A request is `<table>.<method>` with that method's arguments and
 * is answered with what it returns (StoreArgs, StoreAnswer), so the thread's
 * dispatch (answerOp) and the main thread's calls (DataStore.call) are typed
 * from this one list and the tables' own signatures, written nowhere else.
 * A table's other methods (the one-time imports, the walks) stay its own.
 */
export const STORE_OPS = {
  history: ['add', 'get', 'put', 'list', 'clear'],
  ratings: ['add', 'addMany', 'since', 'trimTo'],
  evaluations: ['begin', 'addRankings', 'commit', 'abandon', 'list', 'head', 'summary', 'rankings', 'ranking', 'remove', 'writeRunFile', 'score', 'probability'],
  experiments: ['add', 'list', 'get'],
  judgeCache: ['get', 'set'],
} as const satisfies { [T in keyof StoreTables]: readonly MethodOf<StoreTables[T]>[] }

type Ops = typeof STORE_OPS

/** A request's name: "history.add", "evaluations.score". */
export type StoreOp = { [T in keyof Ops]: `${T}.${Ops[T][number]}` }[keyof Ops]

/** The method a request calls. */
type MethodAt<O extends StoreOp> = O extends `${infer T extends keyof StoreTables}.${infer M}` ? (M extends keyof StoreTables[T] ? StoreTables[T][M] : never) : never

/** A request's arguments: its method's. */
export type StoreArgs<O extends StoreOp> = MethodAt<O> extends (...args: infer A) => unknown ? A : never

/** A request's answer: what its method returns, once settled (a long read answers when its last page is done). */
export type StoreAnswer<O extends StoreOp> = MethodAt<O> extends (...args: never[]) => infer R ? Awaited<R> : never

/**
 * Calls the method a request names on the tables, in the store's thread; a
 * name that is not in STORE_OPS is refused, saying which (a method of a
 * table that is not listed, or something of its prototype, is never called).
 */
export function answerOp(tables: StoreTables, op: string, args: readonly unknown[]): unknown {
  const at = op.indexOf('.')
  const table = op.slice(0, at)
  const method = op.slice(at + 1)
  const listed: readonly string[] | undefined = at > 0 && Object.hasOwn(STORE_OPS, table) ? STORE_OPS[table as keyof Ops] : undefined
  if (!listed?.includes(method)) throw new Error(`the data store has no request "${op}"`)
  const target = tables[table as keyof StoreTables] as unknown as Record<string, (...args: unknown[]) => unknown>
  return target[method]!(...args)
}
