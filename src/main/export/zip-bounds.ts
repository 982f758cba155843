import { inflateRawSync } from 'node:zlib'

/**
 * Checks a server's xlsx page before a zip reader inflates it: a small
 * answer can hold a "zip bomb" whose entries inflate to gigabytes, and the
 * reader (JSZip, under exceljs) inflates each entry whole into memory.
 *
 * The check reads the archive the way that reader does, so that nothing it
 * will inflate goes unchecked: the last end-of-directory record, the central
 * directory from its offset for as long as entries follow one another there
 * (JSZip reads them all, whatever count the end record gives), each entry's
 * data where its local header puts it. Every entry is inflated here with a
 * hard output bound (its declared size), and all together at most
 * `maxTotal`. What that reader would read differently from this check (a
 * ZIP64 record, a directory that is not where the end record says, a count
 * that does not match) is refused. The entries checked are kept, so a page
 * is inflated once: the xlsx page reader reads them as they are here.
 */

const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_HEADER = 0x04034b50
const ZIP64_LOCATOR = 0x07064b50
const END_OF_DIRECTORY_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06])

/** Null when the archive is within bounds, else why not. */
export function zipBoundsProblem(zip: Buffer, maxTotal: number, maxEntries = 200): string | null {
  const checked = checkedZipEntries(zip, maxTotal, maxEntries)
  return typeof checked === 'string' ? checked : null
}

/**
 * The archive's files by name (a leading `/` left out, the last of a name
 * winning, as the zip reader keeps them), each inflated within its bounds;
 * or why the archive is refused.
 */
export function checkedZipEntries(zip: Buffer, maxTotal: number, maxEntries = 200): Map<string, Buffer> | string {
  const files = new Map<string, Buffer>()
  const end = findEndOfCentralDirectory(zip)
  if (end < 0) return 'it is not a zip archive'
  const counts = [zip.readUInt16LE(end + 4), zip.readUInt16LE(end + 6), zip.readUInt16LE(end + 8), zip.readUInt16LE(end + 10)]
  const directorySize = zip.readUInt32LE(end + 12)
  const directoryAt = zip.readUInt32LE(end + 16)
  if (counts.includes(0xffff) || directorySize === 0xffffffff || directoryAt === 0xffffffff || (end >= 20 && zip.readUInt32LE(end - 20) === ZIP64_LOCATOR)) {
    return 'it is a ZIP64 archive, which no page of 100 rows needs'
  }
  if (counts[0] !== 0 || counts[1] !== 0) return 'it claims to span several disks'
  // A reader shifts every offset when the directory ends before the end record: such an archive is not one we wrote.
  if (directoryAt + directorySize !== end) return 'its table of contents is not where its end record says'
  const declared = counts[3]!
  let at = directoryAt
  let entries = 0
  let total = 0
  while (at + 4 <= zip.length && zip.readUInt32LE(at) === DIRECTORY_ENTRY) {
    if (++entries > maxEntries) return `it holds more than ${maxEntries} files`
    if (at + 46 > end) return 'its table of contents is damaged'
    const flags = zip.readUInt16LE(at + 8)
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const size = zip.readUInt32LE(at + 24)
    const local = zip.readUInt32LE(at + 42)
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) return 'it is a ZIP64 archive, which no page of 100 rows needs'
    if (flags & 1) return 'a file in it is encrypted'
    total += size
    if (total > maxTotal) return `it unpacks to more than ${Math.round(maxTotal / 1024 / 1024)} MiB`
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) return 'a file in it is damaged'
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    if (data + compressed > zip.length) return 'a file in it is cut short'
    let content: Buffer
    if (method === 0) {
      if (compressed !== size) return 'a stored file in it has the wrong size'
      content = zip.subarray(data, data + size)
    } else if (method === 8) {
      try {
        content = inflateRawSync(zip.subarray(data, data + compressed), { maxOutputLength: Math.max(1, size) })
        if (content.length !== size) return 'a file in it does not unpack to its stated size'
      } catch {
        return 'a file in it unpacks to more than its stated size, or is damaged'
      }
    } else {
      return `a file in it uses compression method ${method}`
    }
    const name = zip.toString('latin1', at + 46, Math.min(at + 46 + zip.readUInt16LE(at + 28), end))
    files.set(name.startsWith('/') ? name.slice(1) : name, content)
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  if (at !== end) return 'its table of contents is damaged'
  if (entries !== declared) return `its table of contents lists ${entries} files where its end record counts ${declared}`
  return files
}

/** The last end-of-directory signature in the archive, as the zip reader finds it; -1 when there is none or it is cut short. */
function findEndOfCentralDirectory(zip: Buffer): number {
  const at = zip.lastIndexOf(END_OF_DIRECTORY_SIGNATURE)
  return at >= 0 && at + 22 <= zip.length ? at : -1
}
