import { contextBridge, ipcRenderer } from 'electron'
import { isChannel } from '../shared/ipc/channels'

/** Exactly the contract's channels, nothing else; main validates every payload. */
contextBridge.exposeInMainWorld('explorer', {
  invoke(channel: unknown, request: unknown) {
    if (!isChannel(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'validation', message: `Unknown channel "${String(channel)}".` } })
    }
    return ipcRenderer.invoke('explorer:invoke', channel, request)
  },
})
