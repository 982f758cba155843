import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chosenFileText, type FileKind } from '../../src/main/host/chosen-files'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { UploadTickets } from '../../src/main/host/upload-tickets'
import { failureOf } from '../fixtures/failure-of'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * A file the user picked, read the one way in either host: the path
 * Electron's open dialog answers (a FileDialogs answering with a real file,
 * standing in for the user's click), or the upload the browser host's page
 * sent, named by its ticket. Real files; the bound, UTF-8 and the refusals
 * in words that name the file, never its path.
 */

const KIND: FileKind = {
  title: 'Import judgments',
  filters: [{ name: 'Judgments', extensions: ['tsv'] }],
  maxBytes: 16,
  noun: 'a judgments file',
  upload: 'judgments',
  overBound: 'Split it into smaller files and import each.',
}

describe('chosen files', () => {
  const tempDir = useTempDirs('qe-chosen-files')

  /** Dialogs that answer `path` (null: the user cancelled), recording what they were asked. */
  function dialogs(path: string | null) {
    const asked: unknown[] = []
    const files: FileDialogs = { chooseOpen: async (options) => (asked.push(options), path), chooseSave: async () => null }
    return { asked, files }
  }

  it("Electron: reads the file the open dialog picks, asked with the kind's title and filters; null when cancelled", async () => {
    const path = join(tempDir(), 'grades é.tsv')
    writeFileSync(path, 'q1\td1\t2\n')
    const picked = dialogs(path)
    expect(await chosenFileText({ dialogs: picked.files, uploads: null }, undefined, KIND)).toEqual({ fileName: 'grades é.tsv', text: 'q1\td1\t2\n' })
    expect(picked.asked).toEqual([{ title: 'Import judgments', filters: [{ name: 'Judgments', extensions: ['tsv'] }] }])
    expect(await chosenFileText({ dialogs: dialogs(null).files, uploads: null }, undefined, KIND)).toBeNull()
  })

  it('refuses, naming the file and not its path: over the bound, not UTF-8, a folder, missing', async () => {
    const dir = tempDir()
    const read = (name: string) => failureOf(chosenFileText({ dialogs: dialogs(join(dir, name)).files, uploads: null }, undefined, KIND))
    writeFileSync(join(dir, 'exact.tsv'), 'x'.repeat(16))
    expect((await chosenFileText({ dialogs: dialogs(join(dir, 'exact.tsv')).files, uploads: null }, undefined, KIND))?.text).toHaveLength(16)
    writeFileSync(join(dir, 'big.tsv'), 'x'.repeat(17))
    expect((await read('big.tsv')).toIpc()).toEqual({ code: 'validation', message: '"big.tsv" holds more than 16 B, more than a judgments file may; Split it into smaller files and import each.' })
    writeFileSync(join(dir, 'latin1.tsv'), Buffer.from([0x53, 0xe3, 0x6f]))
    expect((await read('latin1.tsv')).message).toBe('"latin1.tsv" is not UTF-8 text, so it is not a judgments file.')
    mkdirSync(join(dir, 'folder.tsv'))
    expect((await read('folder.tsv')).message).toBe('"folder.tsv" is not a file.')
    const missing = await read('missing.tsv')
    expect(missing.message).toBe('"missing.tsv" was not found.')
    expect(missing.message).not.toContain(dir)
  })

  it('browser host: reads the upload its ticket names, once, and deletes its file', async () => {
    const uploads = new UploadTickets(tempDir())
    const bytes = Buffer.from('q1\td1\t1\n')
    const ticket = await uploads.open('session-key', 'sent.tsv', bytes.length, 'judgments')
    await uploads.append('session-key', ticket, 0, bytes)
    expect(await chosenFileText({ dialogs: null, uploads }, ticket, KIND)).toEqual({ fileName: 'sent.tsv', text: 'q1\td1\t1\n' })
    expect((await failureOf(chosenFileText({ dialogs: null, uploads }, ticket, KIND))).code).toBe('not_found')
    await uploads.close()
  })

  it('refuses a request that names an upload in Electron, and one that names none in the browser host', async () => {
    expect((await failureOf(chosenFileText({ dialogs: dialogs('/x').files, uploads: null }, 'ticket', KIND))).toIpc()).toEqual({
      code: 'validation',
      message: 'This window reads the file its open dialog picks: a request here names no upload.',
    })
    const uploads = new UploadTickets(tempDir())
    expect((await failureOf(chosenFileText({ dialogs: null, uploads }, undefined, KIND))).message).toBe(
      'In the browser host the page sends the file to the app first (the upload route), and the request names that upload.',
    )
  })
})
