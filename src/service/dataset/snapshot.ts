import { crc32 } from 'node:zlib'
import type { InvertedIndex } from './inverted-index'
import type { SourceCities, SourceCountry, SourceData } from './source'

/**
 * The source data and the name index as one binary file that loads in a
 * single read: typed arrays are stored as their bytes (in this machine's byte
 * order; the cache key says which) and read back as views on the file, and
 * the strings of a column as one UTF-8 text with each string's end offset.
 *
 * Layout: "QEDS", the header's length (u32), a CRC-32 of everything after it
 * (u32), the header as JSON, then the sections, each 8-byte aligned.
 */

export interface Snapshot {
  source: SourceData
  index: InvertedIndex
}

export class SnapshotError extends Error {}

const MAGIC = 'QEDS'
const PREFIX_BYTES = 12
const ALIGN = 8

type Column = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array
type ColumnType = 'f64' | 'i32' | 'u32' | 'u16' | 'u8'

const COLUMN_TYPES: Record<ColumnType, { of: new (buffer: ArrayBuffer, offset: number, length: number) => Column; bytes: number }> = {
  f64: { of: Float64Array, bytes: 8 },
  i32: { of: Int32Array, bytes: 4 },
  u32: { of: Uint32Array, bytes: 4 },
  u16: { of: Uint16Array, bytes: 2 },
  u8: { of: Uint8Array, bytes: 1 },
}

interface Section {
  name: string
  type: ColumnType
  offset: number
  length: number
}

interface Header {
  key: string
  countries: SourceCountry[]
  cities: { count: number; countryCodes: string[]; featureCodes: string[] }
  index: { documentCount: number; averageFieldLength: number; termCount: number }
  sections: Section[]
}

/** A string column as one text and the end of each string in it (UTF-16 offsets). */
function joinStrings(strings: readonly string[]): { text: Uint8Array; ends: Uint32Array } {
  const joined = strings.join('')
  const text = Buffer.from(joined, 'utf8')
  // Lone surrogates do not survive UTF-8; such a column is not stored rather than stored wrong.
  if (text.toString('utf8') !== joined) throw new SnapshotError('A string is not well-formed Unicode')
  const ends = new Uint32Array(strings.length)
  let end = 0
  for (let i = 0; i < strings.length; i++) ends[i] = end += strings[i]!.length
  return { text, ends }
}

function splitStrings(text: string, ends: Uint32Array): string[] {
  const strings = new Array<string>(ends.length)
  let start = 0
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i]!
    strings[i] = text.slice(start, end)
    start = end
  }
  if (start !== text.length) throw new SnapshotError('A string column does not add up to its text')
  return strings
}

const typeOf = (column: Column): ColumnType =>
  column instanceof Float64Array
    ? 'f64'
    : column instanceof Int32Array
      ? 'i32'
      : column instanceof Uint32Array
        ? 'u32'
        : column instanceof Uint16Array
          ? 'u16'
          : 'u8'

const aligned = (offset: number) => Math.ceil(offset / ALIGN) * ALIGN

export function encodeSnapshot({ source, index }: Snapshot, key: string): Buffer {
  const { cities, countries } = source
  const names = joinStrings(cities.name)
  const terms = joinStrings(index.terms)
  const columns: Record<string, Column> = {
    cityId: cities.cityId,
    population: cities.population,
    longitude: cities.longitude,
    latitude: cities.latitude,
    country: cities.country,
    featureCode: cities.featureCode,
    byId: cities.byId,
    nameEnds: names.ends,
    nameText: names.text,
    termEnds: terms.ends,
    termText: terms.text,
    postingStart: index.postingStart,
    postingDoc: index.postingDoc,
    postingFrequency: index.postingFrequency,
    fieldLength: index.fieldLength,
  }
  const sections: Section[] = []
  const header: Header = {
    key,
    countries,
    cities: { count: cities.count, countryCodes: cities.countryCodes, featureCodes: cities.featureCodes },
    index: { documentCount: index.documentCount, averageFieldLength: index.averageFieldLength, termCount: index.terms.length },
    sections,
  }
  // Section offsets depend on the header's length, which depends on them: lay out until it settles.
  let headerBytes = Buffer.alloc(0)
  for (let start = -1; start !== aligned(PREFIX_BYTES + headerBytes.length); ) {
    start = aligned(PREFIX_BYTES + headerBytes.length)
    sections.length = 0
    let offset = start
    for (const [name, column] of Object.entries(columns)) {
      sections.push({ name, type: typeOf(column), offset, length: column.length })
      offset = aligned(offset + column.byteLength)
    }
    headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  }
  const last = sections[sections.length - 1]!
  const file = Buffer.alloc(last.offset + columns[last.name]!.byteLength)
  file.write(MAGIC, 0, 'latin1')
  file.writeUInt32LE(headerBytes.length, 4)
  headerBytes.copy(file, PREFIX_BYTES)
  for (const section of sections) {
    const column = columns[section.name]!
    file.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), section.offset)
  }
  file.writeUInt32LE(crc32(file.subarray(PREFIX_BYTES)), 8)
  return file
}

/** Reads a snapshot written for `key`; anything else (another key, a truncated or damaged file) throws a SnapshotError. */
export function decodeSnapshot(bytes: Uint8Array, key: string): Snapshot {
  if (bytes.length < PREFIX_BYTES || Buffer.from(bytes.buffer, bytes.byteOffset, 4).toString('latin1') !== MAGIC) {
    throw new SnapshotError('Not a dataset snapshot')
  }
  // Views need aligned offsets; a file read into a shared pool may start anywhere.
  const file = bytes.byteOffset % ALIGN === 0 ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) : Buffer.from(bytes)
  if (crc32(file.subarray(PREFIX_BYTES)) !== file.readUInt32LE(8)) throw new SnapshotError('The snapshot is damaged or truncated')
  const headerLength = file.readUInt32LE(4)
  let header: Header
  try {
    header = JSON.parse(file.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerLength)) as Header
  } catch {
    throw new SnapshotError('The snapshot header is not JSON')
  }
  if (header.key !== key) throw new SnapshotError(`The snapshot is for ${header.key}, not ${key}`)

  const sections = new Map(header.sections.map((section) => [section.name, section]))
  const column = <T extends Column>(name: string, type: ColumnType, length: number): T => {
    const section = sections.get(name)
    if (!section || section.type !== type || section.length !== length) throw new SnapshotError(`The snapshot's ${name} is not a ${type}[${length}]`)
    const { of, bytes: width } = COLUMN_TYPES[type]
    if (section.offset % ALIGN !== 0 || section.offset + length * width > file.length) throw new SnapshotError(`The snapshot's ${name} lies outside the file`)
    return new of(file.buffer as ArrayBuffer, file.byteOffset + section.offset, length) as T
  }
  const text = (name: string): string => {
    const section = sections.get(name)
    if (!section || section.type !== 'u8' || section.offset + section.length > file.length) throw new SnapshotError(`The snapshot's ${name} is missing`)
    return file.toString('utf8', section.offset, section.offset + section.length)
  }

  const { count, countryCodes, featureCodes } = header.cities
  const { documentCount, averageFieldLength, termCount } = header.index
  const cities: SourceCities = {
    count,
    cityId: column('cityId', 'f64', count),
    name: splitStrings(text('nameText'), column('nameEnds', 'u32', count)),
    country: column('country', 'u16', count),
    countryCodes,
    featureCode: column('featureCode', 'u16', count),
    featureCodes,
    population: column('population', 'f64', count),
    longitude: column('longitude', 'f64', count),
    latitude: column('latitude', 'f64', count),
    byId: column('byId', 'i32', count),
  }
  const postingStart = column<Uint32Array>('postingStart', 'u32', termCount + 1)
  const postingCount = postingStart[termCount]!
  const index: InvertedIndex = {
    terms: splitStrings(text('termText'), column('termEnds', 'u32', termCount)),
    postingStart,
    postingDoc: column('postingDoc', 'u32', postingCount),
    postingFrequency: column('postingFrequency', 'u16', postingCount),
    fieldLength: column('fieldLength', 'u16', documentCount),
    averageFieldLength,
    documentCount,
  }
  if (documentCount !== count) throw new SnapshotError('The snapshot indexes another number of cities than it holds')
  return { source: { countries: header.countries, cities }, index }
}
