import type { ServiceFacts, ServiceOptions } from './index'

/**
 * The messages between the app and a service started in a child process by
 * process-entry.ts. They travel only on the fork's private IPC channel: the
 * start options may hold account secrets and the ready facts hold the first
 * account's secret, and neither belongs in argv, the environment or a log.
 */

/** Parent → child, once. Everything but `log`, which stays the child's own (its stderr). */
export interface StartMessage {
  type: 'start'
  options: Omit<ServiceOptions, 'log'>
}

/** Child → parent, once: listening, or why not. */
export type StartReply = { type: 'ready'; facts: ServiceFacts } | { type: 'failed'; message: string }
