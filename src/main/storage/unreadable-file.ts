/**
 * Why a file the user named could not be opened or read, in a sentence that
 * names it by its file name (never its full path) and says what to check:
 * a workspace file, a judgments file, an upload. The system's own message is
 * left out, as it names the path (in the browser host, a folder of the
 * app's); an error without a sentence of its own here is told by its code.
 */
export function unreadableFile(fileName: string, error: unknown, noun = 'a file'): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  switch (code) {
    case 'ENOENT':
      return `"${fileName}" was not found.`
    case 'EACCES':
    case 'EPERM':
      return `"${fileName}" could not be read: permission denied.`
    case 'EISDIR':
      return `"${fileName}" is a folder, not ${noun}.`
    default:
      return `"${fileName}" could not be read (${code ?? 'an error of the file system'}).`
  }
}
