import { open, type FileHandle } from 'node:fs/promises'

/** The file an export writes, appended to in order; `bytes` is how much is written. */
export class OutputFile {
  private written = 0

  private constructor(private readonly handle: FileHandle) {}

  /** A new file: one that exists already is never overwritten (`wx`). */
  static async create(path: string): Promise<OutputFile> {
    return new OutputFile(await open(path, 'wx'))
  }

  get bytes(): number {
    return this.written
  }

  /** Text (as UTF-8) or bytes, after what is written. */
  async write(data: string | Uint8Array): Promise<void> {
    if (data.length === 0) return
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    await this.handle.write(buffer, 0, buffer.length)
    this.written += buffer.length
  }

  /** Flushed to disk before it is renamed into place, so a crash never leaves a short file under the final name. */
  async finish(): Promise<void> {
    await this.handle.sync()
    await this.handle.close()
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => undefined)
  }
}
