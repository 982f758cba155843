import { once } from 'node:events'
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib'
import { ExplorerError } from '../../shared/ipc/errors'
import type { OutputFile } from './output-file'

/**
 * A zip archive written front to back into an export's file (APPNOTE 4.3):
 * each file deflated; a file written piece by piece (a sheet of 100,000
 * rows) is deflated as it comes, never held whole, its checksum and sizes in
 * a data descriptor after it; the table of contents at the end.
 */

const LOCAL_HEADER = 0x04034b50
const DATA_DESCRIPTOR = 0x08074b50
const DIRECTORY_ENTRY = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
/** Version 2.0: deflate, data descriptors. */
const VERSION = 20
/** Bit 3: checksum and sizes follow the data. */
const SIZES_AFTER = 0x0008
const DEFLATE = 8
/** The most a zip without its 64-bit extension counts: a size, an offset. */
const MAX_32 = 0xffffffff

interface Written {
  name: Buffer
  flags: number
  crc: number
  compressed: number
  size: number
  offset: number
}

/** Date and time as a zip header holds them (MS-DOS form, local time, to 2 s). */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((Math.max(1980, at.getFullYear()) - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  }
}

function tooLarge(): ExplorerError {
  return new ExplorerError('too_large', 'The export was stopped: the workbook would be larger than 4 GiB, more than an xlsx file without ZIP64 holds.')
}

export class ZipWriter {
  private readonly files: Written[] = []
  private readonly stamp: { time: number; date: number }

  constructor(
    private readonly out: OutputFile,
    now = new Date(),
  ) {
    this.stamp = dosDateTime(now)
  }

  /** A whole file at once. */
  async add(name: string, data: Buffer): Promise<void> {
    const deflated = deflateRawSync(data)
    const file = this.start(name, 0)
    Object.assign(file, { crc: crc32(data), compressed: deflated.length, size: data.length })
    await this.out.write(this.localHeader(file))
    await this.out.write(deflated)
    this.files.push(file)
  }

  /** A file written piece by piece: `write` each piece in order, then `end`. */
  async stream(name: string): Promise<{ write(piece: string): Promise<void>; end(): Promise<void> }> {
    const file = this.start(name, SIZES_AFTER)
    await this.out.write(this.localHeader(file))
    const deflate = createDeflateRaw()
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
        const descriptor = Buffer.alloc(16)
        descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0)
        descriptor.writeUInt32LE(file.crc, 4)
        descriptor.writeUInt32LE(file.compressed, 8)
        descriptor.writeUInt32LE(file.size, 12)
        await this.out.write(descriptor)
        this.files.push(file)
      },
    }
  }

  /** The table of contents and its end record; the file is then complete (and flushed). */
  async finish(): Promise<void> {
    const at = this.out.bytes
    const entries = this.files.map((file) => {
      const entry = Buffer.alloc(46)
      entry.writeUInt32LE(DIRECTORY_ENTRY, 0)
      entry.writeUInt16LE(VERSION, 4)
      entry.writeUInt16LE(VERSION, 6)
      entry.writeUInt16LE(file.flags, 8)
      entry.writeUInt16LE(DEFLATE, 10)
      entry.writeUInt16LE(this.stamp.time, 12)
      entry.writeUInt16LE(this.stamp.date, 14)
      entry.writeUInt32LE(file.crc, 16)
      entry.writeUInt32LE(file.compressed, 20)
      entry.writeUInt32LE(file.size, 24)
      entry.writeUInt16LE(file.name.length, 28)
      entry.writeUInt32LE(file.offset, 42)
      return Buffer.concat([entry, file.name])
    })
    const directory = Buffer.concat(entries)
    if (at > MAX_32 || at + directory.length > MAX_32) throw tooLarge()
    const end = Buffer.alloc(22)
    end.writeUInt32LE(END_OF_DIRECTORY, 0)
    end.writeUInt16LE(this.files.length, 8)
    end.writeUInt16LE(this.files.length, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(at, 16)
    await this.out.write(Buffer.concat([directory, end]))
    await this.out.finish()
  }

  private start(name: string, flags: number): Written {
    if (this.out.bytes > MAX_32) throw tooLarge()
    return { name: Buffer.from(name, 'utf8'), flags, crc: 0, compressed: 0, size: 0, offset: this.out.bytes }
  }

  private localHeader(file: Written): Buffer {
    const header = Buffer.alloc(30)
    header.writeUInt32LE(LOCAL_HEADER, 0)
    header.writeUInt16LE(VERSION, 4)
    header.writeUInt16LE(file.flags, 6)
    header.writeUInt16LE(DEFLATE, 8)
    header.writeUInt16LE(this.stamp.time, 10)
    header.writeUInt16LE(this.stamp.date, 12)
    // With sizes after the data, these are zero here.
    header.writeUInt32LE(file.crc, 14)
    header.writeUInt32LE(file.compressed, 18)
    header.writeUInt32LE(file.size, 22)
    header.writeUInt16LE(file.name.length, 26)
    return Buffer.concat([header, file.name])
  }
}
