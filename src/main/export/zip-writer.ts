import { once } from 'node:events'
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib'
import { centralDirectory, dataDescriptor, dosStamp, localHeader, SIZES_AFTER, zipName, type DosStamp, type ZipEntry } from '../../shared/export/zip-records'
import { ExplorerError } from '../../shared/ipc/errors'
import type { OutputFile } from './output-file'

/**
 * A zip archive written front to back into an export's file (APPNOTE 4.3):
 * each file deflated; a file written piece by piece (a sheet of 100,000
 * rows) is deflated as it comes, never held whole, its checksum and sizes in
 * a data descriptor after it; the table of contents at the end. The
 * records are src/shared/export/zip-records.ts's, as the demo service's.
 */

/**
 * A file written piece by piece (the sheet's rows, nearly all of a workbook)
 * is deflated at zlib's fastest level, as the demo service deflates its
 * pages: about a fifth of the default level's time (half of writing an
 * XLSX export's workbook, profiled) for about a sixth more bytes. The small parts
 * written whole keep the default.
 */
const STREAM_LEVEL = constants.Z_BEST_SPEED

/** The most a zip without its 64-bit extension counts: a size, an offset. */
const MAX_32 = 0xffffffff

function tooLarge(): ExplorerError {
  return new ExplorerError('too_large', 'The export was stopped: the workbook would be larger than 4 GiB, more than an xlsx file without ZIP64 holds.')
}

export class ZipWriter {
  private readonly files: ZipEntry[] = []
  private readonly stamp: DosStamp

  constructor(
    private readonly out: OutputFile,
    now = new Date(),
  ) {
    this.stamp = dosStamp(now)
  }

  /** A whole file at once. */
  async add(name: string, data: Buffer): Promise<void> {
    const deflated = deflateRawSync(data)
    const file = this.start(name, 0)
    Object.assign(file, { crc: crc32(data), compressed: deflated.length, size: data.length })
    await this.out.write(localHeader(file, this.stamp))
    await this.out.write(deflated)
    this.files.push(file)
  }

  /** A file written piece by piece: `write` each piece in order, then `end`. */
  async stream(name: string): Promise<{ write(piece: string): Promise<void>; end(): Promise<void> }> {
    const file = this.start(name, SIZES_AFTER)
    await this.out.write(localHeader(file, this.stamp))
    const deflate = createDeflateRaw({ level: STREAM_LEVEL })
    let ready: Buffer[] = []
    let failed: Error | null = null
    deflate.on('data', (chunk: Buffer) => ready.push(chunk))
    deflate.on('error', (error: Error) => (failed ??= error))
    const writeReady = async () => {
      if (failed) throw failed
      const chunks = ready
      ready = []
      for (const chunk of chunks) {
        file.compressed += chunk.length
        await this.out.write(chunk)
      }
    }
    return {
      write: async (piece: string) => {
        if (piece === '') return
        const data = Buffer.from(piece, 'utf8')
        file.crc = crc32(data, file.crc)
        file.size += data.length
        if (file.size > MAX_32) throw tooLarge()
        if (!deflate.write(data)) await once(deflate, 'drain')
        await writeReady()
      },
      end: async () => {
        const ended = once(deflate, 'end')
        deflate.end()
        await ended
        await writeReady()
        if (file.compressed > MAX_32) throw tooLarge()
        await this.out.write(dataDescriptor(file))
        this.files.push(file)
      },
    }
  }

  /** The table of contents and its end record; the file is then complete (and flushed). */
  async finish(): Promise<void> {
    const at = this.out.bytes
    const directory = centralDirectory(this.files, this.stamp, at)
    // The end record (22 bytes) holds no offset of its own: what must fit is where the table starts and ends.
    if (at > MAX_32 || at + directory.length - 22 > MAX_32) throw tooLarge()
    await this.out.write(directory)
    await this.out.finish()
  }

  private start(name: string, flags: number): ZipEntry {
    if (this.out.bytes > MAX_32) throw tooLarge()
    return { name: zipName(name), flags, crc: 0, compressed: 0, size: 0, offset: this.out.bytes }
  }
}
