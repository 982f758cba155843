import { EXIT_FAULT, EXIT_OK } from './command'

/**
 * For a command that serves until it is told to stop (`serve`, and `copy-as`
 * while the code it printed runs on the demo): waits for SIGINT (Ctrl-C) or
 * SIGTERM, runs `close` once, and resolves with the exit status, 0 when it
 * closed cleanly.
 */
export function untilStopped(close: () => Promise<void>): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = () => {
      if (stopping) return
      stopping = true
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      close().then(
        () => resolve(EXIT_OK),
        () => resolve(EXIT_FAULT),
      )
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
