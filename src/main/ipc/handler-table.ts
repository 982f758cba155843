import type { z } from 'zod'
import type { Channel } from '../../shared/ipc/channels'
import type { Contract, ReplyOf } from '../../shared/ipc/contract'

/** What a host knows about the caller of one message. */
export interface CallContext {
  /** Aborted when the caller went away (a closed tab, a destroyed window): its upstream work stops. */
  signal?: AbortSignal
}

/** A handler receives the request already validated against the contract. */
export type Handler<C extends Channel> = (request: z.output<Contract[C]['request']>, context: CallContext) => Promise<ReplyOf<C>>

export type HandlerTable = { [C in Channel]: Handler<C> }

/** Handlers of one domain (app, connections, query), merged into the table. */
export type DomainHandlers<C extends Channel> = { [K in C]: Handler<K> }
