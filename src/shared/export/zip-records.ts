/**
 * The records of a zip archive (APPNOTE 4.3) around its files' deflated
 * data: a local header before each file, a data descriptor after one whose
 * sizes were not known when it began, the table of contents and its end
 * record. Compressing and checksumming are the caller's (Node's zlib, in
 * the export's writer and in the demo service); here is only where each
 * number goes, so both write archives of one form.
 */

const LOCAL_HEADER = 0x04034b50
const DATA_DESCRIPTOR = 0x08074b50
const DIRECTORY_ENTRY = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
/** Version 2.0: deflate, data descriptors. */
const VERSION = 20
const DEFLATE = 8
/** Flag bit 3: the checksum and sizes follow the data, in a data descriptor. */
export const SIZES_AFTER = 0x0008
/** Flag bit 11: the name is UTF-8 (APPNOTE appendix D); without it readers take a name's bytes as code page 437. */
const UTF8_NAME = 0x0800

/** The entry's flags, marked UTF-8 when its name goes beyond ASCII (an ASCII name reads alike either way, and keeps the caller's flags). */
function flagsOf(entry: ZipEntry): number {
  return entry.name.some((byte) => byte >= 0x80) ? entry.flags | UTF8_NAME : entry.flags
}

/** One deflated file of an archive: its name (as bytes), flags, checksum, sizes, and where its local header starts. */
export interface ZipEntry {
  name: Uint8Array
  flags: number
  crc: number
  compressed: number
  size: number
  offset: number
}

/** A time as a zip header holds it: MS-DOS form, to 2 s. */
export interface DosStamp {
  time: number
  date: number
}

const utf8 = new TextEncoder()

/** A file name as an archive holds it. */
export function zipName(name: string): Uint8Array {
  return utf8.encode(name)
}

/** Date and time as a zip header holds them (local time, years before 1980 as 1980). */
export function dosStamp(at: Date): DosStamp {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((Math.max(1980, at.getFullYear()) - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  }
}

function record(length: number, name?: Uint8Array): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(length + (name?.length ?? 0))
  if (name) bytes.set(name, length)
  return { bytes, view: new DataView(bytes.buffer) }
}

/** The header before a file's data; with SIZES_AFTER its checksum and sizes are zero here. */
export function localHeader(entry: ZipEntry, stamp: DosStamp): Uint8Array {
  const { bytes, view } = record(30, entry.name)
  view.setUint32(0, LOCAL_HEADER, true)
  view.setUint16(4, VERSION, true)
  view.setUint16(6, flagsOf(entry), true)
  view.setUint16(8, DEFLATE, true)
  view.setUint16(10, stamp.time, true)
  view.setUint16(12, stamp.date, true)
  view.setUint32(14, entry.crc, true)
  view.setUint32(18, entry.compressed, true)
  view.setUint32(22, entry.size, true)
  view.setUint16(26, entry.name.length, true)
  return bytes
}

/** The checksum and sizes after the data of a file written with SIZES_AFTER. */
export function dataDescriptor(entry: ZipEntry): Uint8Array {
  const { bytes, view } = record(16)
  view.setUint32(0, DATA_DESCRIPTOR, true)
  view.setUint32(4, entry.crc, true)
  view.setUint32(8, entry.compressed, true)
  view.setUint32(12, entry.size, true)
  return bytes
}

/** The table of contents of `entries`, starting at byte `at` of the archive, and its end record: the archive's last bytes. */
export function centralDirectory(entries: readonly ZipEntry[], stamp: DosStamp, at: number): Uint8Array {
  const size = entries.reduce((total, entry) => total + 46 + entry.name.length, 0)
  const { bytes, view } = record(size + 22)
  let p = 0
  for (const entry of entries) {
    view.setUint32(p, DIRECTORY_ENTRY, true)
    view.setUint16(p + 4, VERSION, true)
    view.setUint16(p + 6, VERSION, true)
    view.setUint16(p + 8, flagsOf(entry), true)
    view.setUint16(p + 10, DEFLATE, true)
    view.setUint16(p + 12, stamp.time, true)
    view.setUint16(p + 14, stamp.date, true)
    view.setUint32(p + 16, entry.crc, true)
    view.setUint32(p + 20, entry.compressed, true)
    view.setUint32(p + 24, entry.size, true)
    view.setUint16(p + 28, entry.name.length, true)
    view.setUint32(p + 42, entry.offset, true)
    bytes.set(entry.name, p + 46)
    p += 46 + entry.name.length
  }
  view.setUint32(p, END_OF_DIRECTORY, true)
  view.setUint16(p + 8, entries.length, true)
  view.setUint16(p + 10, entries.length, true)
  view.setUint32(p + 12, size, true)
  view.setUint32(p + 16, at, true)
  return bytes
}
