import { join } from 'node:path'
import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron'
import { createAppCore, type AppCore } from './app/app-core'
import { shutdown } from './app/shutdown'
import type { FileDialogs } from './host/file-dialogs'

/** The only file that touches Electron: window, IPC binding, lifecycle. */

export const INVOKE_CHANNEL = 'explorer:invoke'

let core: AppCore | null = null

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Query Explorer',
    icon: join(__dirname, '../renderer/icon.png'),
    show: false,
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  window.once('ready-to-show', () => window.show())
  // Links leave the app for the system browser; the window never navigates away.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL)
  else void window.loadFile(join(__dirname, '../renderer/index.html'))
}

/** The native dialogs, attached to the focused window so they are modal to it. */
const nativeDialogs: FileDialogs = {
  async chooseOpen({ title, filters }) {
    const window = BrowserWindow.getFocusedWindow()
    const options: Electron.OpenDialogOptions = { title, filters, properties: ['openFile'] }
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
    return result.canceled ? null : (result.filePaths[0] ?? null)
  },
  async chooseSave({ title, defaultName, filters }) {
    const window = BrowserWindow.getFocusedWindow()
    const options: Electron.SaveDialogOptions = { title, defaultPath: defaultName, filters, properties: ['createDirectory', 'showOverwriteConfirmation'] }
    const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
    return result.canceled ? null : (result.filePath ?? null)
  },
}

app.whenReady().then(async () => {
  // QE_DATA_DIR and QE_KEYCHAIN_SERVICE let tests run a window that never touches the user's own data.
  core = await createAppCore({
    dataDir: process.env.QE_DATA_DIR ?? app.getPath('userData'),
    host: 'electron',
    version: app.getVersion(),
    keychainService: process.env.QE_KEYCHAIN_SERVICE,
    dialogs: nativeDialogs,
  })
  ipcMain.handle(INVOKE_CHANNEL, (event, channel: unknown, payload: unknown) => {
    const frameUrl = event.senderFrame?.url ?? ''
    if (!frameUrl.startsWith('file://') && !(process.env.ELECTRON_RENDERER_URL && frameUrl.startsWith(process.env.ELECTRON_RENDERER_URL))) {
      return { ok: false, error: { code: 'validation', message: 'IPC from an unknown frame was refused.' } }
    }
    // A window that closes, reloads or crashes stops the upstream requests it was waiting for.
    const caller = new AbortController()
    const gone = () => caller.abort()
    const sender = event.sender
    sender.once('destroyed', gone)
    sender.once('render-process-gone', gone)
    sender.once('did-start-loading', gone)
    return core!.dispatch(channel, payload, { signal: caller.signal }).finally(() => {
      if (sender.isDestroyed()) return
      sender.off('destroyed', gone)
      sender.off('render-process-gone', gone)
      sender.off('did-start-loading', gone)
    })
  })
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

let quitting = false
app.on('will-quit', (event) => {
  if (!core || quitting) return
  // Closing takes a moment (the demo service, open sockets); a keychain call held by a native thread must not stop the quit.
  event.preventDefault()
  quitting = true
  void shutdown(() => core!.close(), core.secrets)
})
