import { z } from 'zod'
import { MAX_JUDGMENT_FILE_BYTES } from '../relevance/judgment-import'

/**
 * Files the browser-host page sends to the app. A page cannot hand main a
 * path (it has only the bytes Chromium's file picker gave it), and a file is
 * never one IPC message: the page asks the host's upload route for a ticket,
 * sends the bytes in parts of UPLOAD_PART_BYTES in order, and a channel that
 * reads a file (`sets:import`, `workspace:import`) names the upload in place of a text. Electron
 * needs none of it: main reads the file its open dialog picked.
 */

/** What a file sent is, named when its upload opens: each kind has its own bound (main holds the workspace file's). */
export const UPLOAD_KINDS = ['judgments', 'workspace'] as const
export type UploadKind = (typeof UPLOAD_KINDS)[number]
/** The most bytes a judgments file sent may hold (an upload opened without a kind is one). */
export const MAX_UPLOAD_BYTES = MAX_JUDGMENT_FILE_BYTES
/** The most bytes one part may hold. */
export const UPLOAD_PART_BYTES = 1024 * 1024
/** `POST` opens an upload, `PUT <path>/<ticket>` sends a part (the byte it starts at in UPLOAD_OFFSET_HEADER). */
export const UPLOAD_PATH = '/uploads'
export const UPLOAD_OFFSET_HEADER = 'x-upload-offset'

/** The upload a channel reads, by the ticket the upload route gave (the file's name came with the ticket's request). */
export const UploadIdSchema = z.string().min(1).max(100)
