/**
 * The one way a file the user names is read whole (a workspace, a judgments
 * file, a request): chunk by chunk, stopping one byte past the bound. A
 * file's size is not asked first, as a pipe, standard input or /dev/zero has
 * none to give, and a file may grow between the question and the read; so
 * nothing past the bound is ever held, however much the source would give.
 */

/** The bytes, or null when the source holds more than `maxBytes` (it was read no further than that). */
export async function readBounded(source: AsyncIterable<Buffer | string>, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let length = 0
  // Breaking out of the loop closes the source (for a stream: destroyed, its file closed).
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    length += bytes.length
    if (length > maxBytes) return null
    chunks.push(bytes)
  }
  return Buffer.concat(chunks, length)
}
