import { inflateRawSync } from 'node:zlib'

/**
 * Checks a server's xlsx page before a zip reader inflates it: a small
 * answer can hold a "zip bomb" whose entries inflate to gigabytes, and the
 * reader (JSZip, under exceljs) inflates each entry whole into memory. Each
 * entry is inflated here with a hard output bound: its declared size, and
 * all of them together at most `maxTotal`. Returns null when the archive is
 * within bounds, else why not.
 */
export function zipBoundsProblem(zip: Buffer, maxTotal: number, maxEntries = 200): string | null {
  const end = findEndOfCentralDirectory(zip)
  if (end < 0) return 'it is not a zip archive'
  const entries = zip.readUInt16LE(end + 10)
  if (entries > maxEntries) return `it holds ${entries} files (at most ${maxEntries})`
  let at = zip.readUInt32LE(end + 16)
  let total = 0
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) return 'its table of contents is damaged'
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const size = zip.readUInt32LE(at + 24)
    const local = zip.readUInt32LE(at + 42)
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) return 'it is a ZIP64 archive, which no page of 100 rows needs'
    total += size
    if (total > maxTotal) return `it unpacks to more than ${Math.round(maxTotal / 1024 / 1024)} MiB`
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) return 'a file in it is damaged'
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    if (data + compressed > zip.length) return 'a file in it is cut short'
    if (method === 0) {
      if (compressed !== size) return 'a stored file in it has the wrong size'
    } else if (method === 8) {
      try {
        const inflated = inflateRawSync(zip.subarray(data, data + compressed), { maxOutputLength: Math.max(1, size) })
        if (inflated.length !== size) return 'a file in it does not unpack to its stated size'
      } catch {
        return 'a file in it unpacks to more than its stated size, or is damaged'
      }
    } else {
      return `a file in it uses compression method ${method}`
    }
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return null
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const floor = Math.max(0, zip.length - 22 - 0xffff)
  for (let i = zip.length - 22; i >= floor; i--) if (zip.readUInt32LE(i) === 0x06054b50) return i
  return -1
}
