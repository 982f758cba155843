/**
 * A strict reader of the plain XML a workbook's parts are made of: elements,
 * attributes and text, read as a conforming parser reads them (line ends
 * made LF, the five named entities and character references decoded). It
 * reads only that: a DOCTYPE, a comment, a CDATA section, a processing
 * instruction after the declaration, an unknown entity, a character XML
 * forbids or tags that do not nest make it answer false, and the caller
 * hands the page to exceljs, which reads (or refuses) it as before.
 */

export interface XmlHandler {
  open(name: string, attributes: Record<string, string>, selfClosing: boolean): boolean
  close(name: string): boolean
  text(text: string): boolean
}

/** Characters XML 1.0 leaves out of a document (raw or as references): C0 controls but TAB, LF and CR; U+FFFE, U+FFFF. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13
const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 /* _ */ || c === 58 /* : */
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 /* - */ || c === 46 /* . */

/** The text with its line ends as a parser gives them (CR LF and a lone CR are LF) and its references decoded; null if one is not plain. */
export function decodeXmlText(raw: string): string | null {
  const text = raw.indexOf('\r') >= 0 ? raw.replace(/\r\n?/g, '\n') : raw
  if (text.indexOf('&') < 0) return text
  let out = ''
  let at = 0
  for (;;) {
    const amp = text.indexOf('&', at)
    if (amp < 0) return out + text.slice(at)
    const semi = text.indexOf(';', amp)
    if (semi < 0) return null
    const entity = text.slice(amp + 1, semi)
    let char: string | undefined
    if (entity.startsWith('#x')) char = codePoint(/^[0-9A-Fa-f]+$/.test(entity.slice(2)) ? parseInt(entity.slice(2), 16) : NaN)
    else if (entity.startsWith('#')) char = codePoint(/^\d+$/.test(entity.slice(1)) ? parseInt(entity.slice(1), 10) : NaN)
    else char = NAMED[entity]
    if (char === undefined) return null
    out += text.slice(at, amp) + char
    at = semi + 1
  }
}

function codePoint(value: number): string | undefined {
  if (!Number.isInteger(value) || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined
  const char = String.fromCodePoint(value)
  return FORBIDDEN.test(char) ? undefined : char
}

/** Reads `xml` through `handler`; false as soon as the document (or the handler) finds something it does not read plainly. */
export function scanXml(xml: string, handler: XmlHandler): boolean {
  if (FORBIDDEN.test(xml)) return false
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0
  // The declaration, and only it, may open the document.
  while (i < xml.length && isSpace(xml.charCodeAt(i))) i++
  if (xml.startsWith('<?xml', i) && isSpace(xml.charCodeAt(i + 5))) {
    const end = xml.indexOf('?>', i)
    if (end < 0) return false
    i = end + 2
  }
  const open: string[] = []
  let rootSeen = false
  while (i < xml.length) {
    const lt = xml.indexOf('<', i)
    const textEnd = lt < 0 ? xml.length : lt
    if (textEnd > i) {
      const raw = xml.slice(i, textEnd)
      if (open.length === 0) {
        // Outside the root only white space.
        if (raw.trim() !== '') return false
      } else {
        const text = decodeXmlText(raw)
        if (text === null || !handler.text(text)) return false
      }
    }
    if (lt < 0) break
    const c = xml.charCodeAt(lt + 1)
    if (c === 33 /* ! */ || c === 63 /* ? */) return false
    if (c === 47 /* / */) {
      const end = xml.indexOf('>', lt)
      if (end < 0) return false
      const name = xml.slice(lt + 2, end).trimEnd()
      if (open.pop() !== name || !handler.close(name)) return false
      i = end + 1
      continue
    }
    const tag = readStartTag(xml, lt)
    if (!tag || (open.length === 0 && rootSeen)) return false
    rootSeen = true
    if (!handler.open(tag.name, tag.attributes, tag.selfClosing)) return false
    if (tag.selfClosing) {
      if (!handler.close(tag.name)) return false
    } else {
      open.push(tag.name)
    }
    i = tag.end
  }
  return open.length === 0 && rootSeen
}

/** The start tag at `lt`: its name, attributes (decoded) and end; null if it is not one read plainly. */
function readStartTag(xml: string, lt: number): { name: string; attributes: Record<string, string>; selfClosing: boolean; end: number } | null {
  let j = lt + 1
  if (!isNameStart(xml.charCodeAt(j))) return null
  while (isNameChar(xml.charCodeAt(j))) j++
  const name = xml.slice(lt + 1, j)
  const attributes: Record<string, string> = {}
  for (;;) {
    const spaced = j
    while (isSpace(xml.charCodeAt(j))) j++
    const c = xml.charCodeAt(j)
    if (c === 62 /* > */) return { name, attributes, selfClosing: false, end: j + 1 }
    if (c === 47 /* / */) return xml.charCodeAt(j + 1) === 62 ? { name, attributes, selfClosing: true, end: j + 2 } : null
    if (j === spaced || !isNameStart(c)) return null
    const nameAt = j
    while (isNameChar(xml.charCodeAt(j))) j++
    const attribute = xml.slice(nameAt, j)
    while (isSpace(xml.charCodeAt(j))) j++
    if (xml.charCodeAt(j) !== 61 /* = */) return null
    j++
    while (isSpace(xml.charCodeAt(j))) j++
    const quote = xml.charCodeAt(j)
    if (quote !== 34 && quote !== 39) return null
    const valueAt = j + 1
    let references = false
    for (j = valueAt; ; j++) {
      const v = xml.charCodeAt(j)
      if (v === quote) break
      // The end of the text, a '<', or white space a parser would make a space: none is in a plain part.
      if (Number.isNaN(v) || v === 60 || v === 9 || v === 10 || v === 13) return null
      if (v === 38 /* & */) references = true
    }
    const raw = xml.slice(valueAt, j)
    const value = references ? decodeXmlText(raw) : raw
    // A name read twice, or one an object holds already (__proto__, constructor): not a plain part.
    if (value === null || attribute in attributes) return null
    attributes[attribute] = value
    j++
  }
}

const SHEET_DATA = '<sheetData>'
const SHEET_DATA_END = '</sheetData>'

/**
 * scanXml for a worksheet whose rows `rows` reads more quickly than
 * scanXml's calls: the part is read by scanXml with the text between the
 * first `<sheetData>` and its `</sheetData>` left out, and `rows` is given
 * that text's bounds where scanXml opens that sheetData (after `handler`
 * did). `rows` answers true when it read them all as `handler` would have,
 * null when they are not in the form it reads. Null when `rows` gave up or
 * the part is not read plainly (the handler may have been called): the
 * caller then reads the part with scanXml, from a fresh handler.
 */
export function scanSheetXml(xml: string, handler: XmlHandler, rows: (from: number, to: number) => true | null): true | null {
  const start = xml.indexOf(SHEET_DATA)
  // Another start tag of sheetData before this one would be the one whose rows scanXml reads.
  if (start < 0 || xml.indexOf('<sheetData') !== start) return null
  const from = start + SHEET_DATA.length
  const to = xml.indexOf(SHEET_DATA_END, from)
  if (to < 0 || FORBIDDEN.test(xml.slice(from, to))) return null
  let read: true | null = null
  const plain = scanXml(xml.slice(0, from) + xml.slice(to), {
    open(name, attributes, selfClosing) {
      if (!handler.open(name, attributes, selfClosing)) return false
      // The first sheetData is the one whose rows were left out: they are read here, before its end tag.
      if (name !== 'sheetData' || read !== null) return true
      read = rows(from, to)
      return read === true
    },
    close: (name) => handler.close(name),
    text: (text) => handler.text(text),
  })
  return plain && read === true ? true : null
}
