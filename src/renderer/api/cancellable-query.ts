import type { HistoryEntry, ReplyOf, RequestOf } from '../../shared/ipc/contract'
import { latestCall } from '../stores/latest-call'
import { call, ExplorerClientError } from './explorer-client'

/** The channels whose request carries a requestId that `query:cancel` stops in the main process. */
export type CancellableChannel = 'query:run' | 'compare:run'

/** A request as sent on a line: its requestId is chosen here unless the caller must know it first (Load more names its run's). */
type Sent<C extends CancellableChannel> = Omit<RequestOf<C>, 'requestId'> & { requestId?: string }

/** What the caller of a request gets when a newer call (or Cancel) took its place: its answer is never shown. */
export class QuerySuperseded extends Error {
  constructor() {
    super('A newer query took the place of this one.')
  }
}

export const wasSuperseded = (error: unknown): error is QuerySuperseded => error instanceof QuerySuperseded

/** One call on a line: the requests of one run (a page and its statistics, Load more's pages, a walk's queries). */
export interface QueryCall {
  /** True until a newer call starts on the line, or the line is cancelled. */
  current(): boolean
  /** Sends a request; its reply, or QuerySuperseded when this call is no longer current as it comes back. Failures throw ExplorerClientError. */
  send<C extends CancellableChannel>(channel: C, request: Sent<C>): Promise<ReplyOf<C>>
  /** Stops this call's requests still on their way (pages nobody waits for any more); the call stays current. */
  stop(): void
}

/** Queries where the latest call wins: starting one cancels the others, in the main process too. */
export interface CancellableQuery {
  /** Starts a call; every earlier one is superseded: its requests on their way are cancelled and their answers dropped. */
  start(): QueryCall
  /** Supersedes every call (Cancel, a reset, a dialog closed); resolves once main was asked to stop their requests. */
  cancel(): Promise<void>
}

export interface CancellableQueryOptions {
  /**
   * Called with the History entry each reply or failure carries, whether or
   * not its call is still current: main wrote the run (a cancelled one too),
   * so the History shows it even when the window shows another answer.
   */
  recorded?: (entry: HistoryEntry) => void
}

/**
 * A line of cancellable queries: each request gets a requestId main can
 * cancel with, and answers come back out of order (a search typed on, a run
 * started again), so only the latest call's answers are returned.
 */
export function cancellableQuery({ recorded }: CancellableQueryOptions = {}): CancellableQuery {
  const calls = latestCall()
  /** Requests on their way, of any call: a new call or Cancel stops them in main. */
  const inFlight = new Set<string>()

  function cancelRequests(ids: Iterable<string>): Promise<void> {
    const stopping = [...ids].filter((requestId) => inFlight.delete(requestId))
    return Promise.all(stopping.map((requestId) => call('query:cancel', { requestId }).catch(() => undefined))).then(() => undefined)
  }

  function supersede(): Promise<void> {
    calls.supersede()
    return cancelRequests(inFlight)
  }

  /** A query:run reply or failure carries its run's entry (the contract's QueryRunReply, IpcFailure); other channels' never do. */
  const noteEntry = (carrier: object): void => {
    const entry = 'historyEntry' in carrier ? (carrier.historyEntry as HistoryEntry | undefined) : undefined
    if (entry && recorded) recorded(entry)
  }

  return {
    start() {
      void cancelRequests(inFlight)
      const current = calls.start()
      const own = new Set<string>()
      return {
        current,
        async send<C extends CancellableChannel>(channel: C, request: Sent<C>): Promise<ReplyOf<C>> {
          // A call already superseded (a walk closed, a run stopped) asks nothing more.
          if (!current()) throw new QuerySuperseded()
          const requestId = request.requestId ?? crypto.randomUUID()
          inFlight.add(requestId)
          own.add(requestId)
          let reply: ReplyOf<C>
          try {
            reply = await call(channel, { ...request, requestId } as RequestOf<C>)
          } catch (e) {
            if (e instanceof ExplorerClientError) noteEntry(e.error)
            throw current() ? e : new QuerySuperseded()
          } finally {
            inFlight.delete(requestId)
            own.delete(requestId)
          }
          noteEntry(reply)
          if (!current()) throw new QuerySuperseded()
          return reply
        },
        stop() {
          void cancelRequests(own)
        },
      }
    },
    cancel: supersede,
  }
}
