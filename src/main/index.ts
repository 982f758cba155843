import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, shell } from 'electron'
import { createAppCore, type AppCore } from './app/app-core'

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

app.whenReady().then(async () => {
  // QE_DATA_DIR and QE_KEYCHAIN_SERVICE let tests run a window that never touches the user's own data.
  core = await createAppCore({
    dataDir: process.env.QE_DATA_DIR ?? app.getPath('userData'),
    host: 'electron',
    version: app.getVersion(),
    keychainService: process.env.QE_KEYCHAIN_SERVICE,
  })
  ipcMain.handle(INVOKE_CHANNEL, (event, channel: unknown, payload: unknown) => {
    const frameUrl = event.senderFrame?.url ?? ''
    if (!frameUrl.startsWith('file://') && !(process.env.ELECTRON_RENDERER_URL && frameUrl.startsWith(process.env.ELECTRON_RENDERER_URL))) {
      return { ok: false, error: { code: 'validation', message: 'IPC from an unknown frame was refused.' } }
    }
    return core!.dispatch(channel, payload)
  })
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  void core?.close()
})
