/**
 * The native open and save dialogs, as a host offers them. Electron gives
 * real ones; the browser host has none (the page uses Chromium's file picker
 * and downloads instead), so handlers get `null` there. A path that comes
 * back is one the user chose, and the only kind main reads or writes for
 * workspaces and exports.
 */
export interface FileFilter {
  name: string
  extensions: string[]
}

export interface FileDialogs {
  /** The file the user picked, or null when they cancelled. */
  chooseOpen(options: { title: string; filters: FileFilter[] }): Promise<string | null>
  /** Where the user chose to save, or null when they cancelled. */
  chooseSave(options: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | null>
}
