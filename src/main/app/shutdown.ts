import type { SecretStore } from '../credentials/secret-store'

/** A stop asked for (SIGTERM, the last window closed) ends the process within this time, whatever is pending. */
export const SHUTDOWN_LIMIT_MS = 3_000

/**
 * Closes what can be closed within the limit, then ends the process. When a
 * keychain call is still held by a native thread, a normal exit would wait for
 * it for good (libuv joins its threads on exit), so the process ends without
 * that wait.
 */
export async function shutdown(close: () => Promise<void>, secrets: SecretStore, limitMs = SHUTDOWN_LIMIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    close().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, limitMs - 500)))),
  ])
  clearTimeout(timer)
  if (secrets.held()) process.kill(process.pid, 'SIGKILL')
  process.exit(0)
}
