import { startService } from './index'
import type { StartMessage, StartReply } from './process-protocol'

/**
 * Runs the embedded service in a process of its own, forked by the app with
 * an IPC channel, so that a costly query never stalls the app's event loop.
 * The parent sends one start message; this process answers with the
 * service's facts (or why it could not start) and then only serves HTTP. It
 * lives exactly as long as its parent: a closed channel (the parent exited,
 * even killed) ends it, and the parent stops it with a signal.
 */

function reply(message: StartReply, then?: () => void): void {
  process.send!(message, undefined, undefined, () => then?.())
}

if (!process.send) {
  process.stderr.write('process-entry: start this module with child_process.fork (it needs the IPC channel); use `npm run service` to run the service alone\n')
  process.exit(2)
}

process.on('disconnect', () => process.exit(0))

process.once('message', (message: StartMessage) => {
  if (message?.type !== 'start') {
    reply({ type: 'failed', message: 'the first message must be a start message' }, () => process.exit(2))
    return
  }
  startService({ ...message.options, log: (line) => process.stderr.write(`${line}\n`) }).then(
    (service) => {
      const { authUrl, queryUrl, workspace, apis, account, startupMs } = service
      reply({ type: 'ready', facts: { authUrl, queryUrl, workspace, apis, account, startupMs } })
    },
    (error: unknown) => reply({ type: 'failed', message: (error as Error)?.message ?? String(error) }, () => process.exit(1)),
  )
})
