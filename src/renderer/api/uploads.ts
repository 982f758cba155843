import { UPLOAD_OFFSET_HEADER, UPLOAD_PATH, type UploadKind } from '../../shared/ipc/uploads'
import { ExplorerClientError, hostRequest } from './explorer-client'

/**
 * Sends a file the user picked to the browser host, as the upload route
 * takes it: a ticket for the file's name, size and kind (each kind has its
 * own bound there), then its bytes in parts, in order (the host says how
 * large a part may be). The answer is the upload's id, which a channel that
 * reads a file (`sets:import`, `workspace:import`) names in
 * place of the file's text. The host's refusals (a file over its bound, a
 * part out of order, an upload expired) come back as ExplorerClientError in
 * its words. Electron has no uploads: its main reads the file its open dialog picked.
 */
export async function uploadFile(file: File, kind: UploadKind): Promise<string> {
  if (window.explorer) throw new ExplorerClientError({ code: 'validation', message: 'This window reads files through its open dialog, not by upload.' })
  const opened = (await hostRequest(UPLOAD_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fileName: file.name, size: file.size, kind }),
  })) as { ticket: string; partBytes: number }
  for (let offset = 0; offset < file.size; offset += opened.partBytes) {
    await hostRequest(`${UPLOAD_PATH}/${opened.ticket}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', [UPLOAD_OFFSET_HEADER]: String(offset) },
      // A slice is read from the file as it is sent: the page never holds the whole file.
      body: file.slice(offset, offset + opened.partBytes),
    })
  }
  return opened.ticket
}
