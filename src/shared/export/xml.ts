/**
 * The xml pages of an export, merged into one document: the first page's
 * declaration and root element, its other children (the `<type>` list) once,
 * then the `<item>` elements of every page, then the root's end tag (the
 * service's shape, src/service/formats/xml.ts). Each page is scanned, not
 * trusted: tags must nest and close, and a DOCTYPE (whose entities could
 * expand without bound when the file is opened) is refused. What would make
 * the exported file act when opened is left out: processing instructions
 * (`<?xml-stylesheet href=…?>` fetches and runs a stylesheet) and XInclude
 * (`<xi:include href=…>` pulls in another file or URL), elements and
 * namespace declarations alike.
 */

export interface XmlPage {
  /** Everything before the root element: the declaration, comments. */
  prolog: string
  rootName: string
  /** The root's start tag as the page wrote it. */
  rootStart: string
  /** The root's child elements, each as written (its markup and content). */
  children: { name: string; text: string }[]
}

/** The child elements that are rows. */
export const XML_ROW_ELEMENT = 'item'

const NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*/

export class XmlPageError extends Error {}

/** The XInclude namespaces (2001 is the recommendation's, 2003 an earlier draft's that processors still know). */
const XINCLUDE_NAMESPACE = String.raw`http://www\.w3\.org/200[13]/XInclude`
/** A declaration of the XInclude namespace in a start tag, with the white space before it. */
const XINCLUDE_DECLARATION = new RegExp(String.raw`\s+xmlns(?::([\w.\-]+))?\s*=\s*(["'])${XINCLUDE_NAMESPACE}\2`, 'g')

/** A range of the page's text that the export leaves out. */
interface Cut {
  from: number
  to: number
}

/** The text from `from` to `to` without the cuts inside it (cuts are in order and do not overlap). */
function withoutCuts(text: string, from: number, to: number, cuts: readonly Cut[]): string {
  let out = ''
  let at = from
  for (const cut of cuts) {
    if (cut.to <= from || cut.from >= to) continue
    out += text.slice(at, cut.from)
    at = cut.to
  }
  return out + text.slice(at, to)
}

/** A start tag without its XInclude namespace declarations. */
function withoutXIncludeDeclarations(tag: string): string {
  return tag.replace(XINCLUDE_DECLARATION, '')
}

/** Reads one page's structure; throws XmlPageError naming what is wrong. */
export function readXmlPage(text: string): XmlPage {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  // The prefixes the page binds to XInclude, wherever it does: an element with one of them is left out, with its content.
  const xincludePrefixes = new Set([...text.matchAll(XINCLUDE_DECLARATION)].map((match) => match[1] ?? ''))
  const isXInclude = (name: string, tag: string) => {
    const colon = name.indexOf(':')
    if (colon > 0 && xincludePrefixes.has(name.slice(0, colon))) return true
    // An element that makes XInclude its default namespace is in it itself.
    return new RegExp(String.raw`\sxmlns\s*=\s*(["'])${XINCLUDE_NAMESPACE}\1`).test(tag)
  }
  // Prolog: declaration, comments, processing instructions, white space. Only the declaration is kept of the instructions.
  const prologCuts: Cut[] = []
  for (;;) {
    i = skipSpace(text, i)
    if (text.startsWith('<?', i)) {
      const end = after(text, '?>', i, 'a processing instruction')
      if (!/^<\?xml\s/.test(text.slice(i, i + 6)) || i > (text.charCodeAt(0) === 0xfeff ? 1 : 0)) prologCuts.push({ from: i, to: end })
      i = end
    } else if (text.startsWith('<!--', i)) i = after(text, '-->', i, 'a comment')
    else if (text.startsWith('<!', i)) throw new XmlPageError('The xml answer has a DOCTYPE or other declaration, which an export does not copy.')
    else break
  }
  if (text.charCodeAt(i) !== 60 /* < */) throw new XmlPageError('The xml answer has no root element.')
  const prolog = withoutCuts(text, 0, i, prologCuts).replace(/^\uFEFF/, '')
  const root = readTag(text, i)
  if (root.kind !== 'start') throw new XmlPageError('The xml answer does not start with an element.')
  if (isXInclude(root.name, text.slice(i, root.end))) throw new XmlPageError('The xml answer is an XInclude element, which an export does not copy.')
  const page: XmlPage = { prolog, rootName: root.name, rootStart: withoutXIncludeDeclarations(text.slice(i, root.end)), children: [] }
  i = root.end
  if (!root.selfClosing) {
    // The root's content: each child element is cut out whole; nested tags must match.
    const open: string[] = []
    let childStart = -1
    let childName = ''
    /** Within the current child: ranges left out of it (instructions, XInclude elements and declarations). */
    let cuts: Cut[] = []
    /** Depth in `open` at which an XInclude element started, while inside one (its content goes with it). */
    let dropFrom = -1
    const keepChild = (end: number) => {
      const dropped = cuts.some((cut) => cut.from === childStart && cut.to === end)
      if (!dropped) page.children.push({ name: childName, text: withoutCuts(text, childStart, end, cuts) })
      cuts = []
    }
    for (;;) {
      const lt = text.indexOf('<', i)
      if (lt < 0) throw new XmlPageError(`The xml answer ends before </${root.name}>.`)
      if (open.length === 0 && text.slice(i, lt).trim() !== '') throw new XmlPageError(`The xml answer has text directly in <${root.name}>.`)
      i = lt
      if (text.startsWith('<!--', i)) {
        i = after(text, '-->', i, 'a comment')
        continue
      }
      if (text.startsWith('<![CDATA[', i)) {
        if (open.length === 0) throw new XmlPageError(`The xml answer has text directly in <${root.name}>.`)
        i = after(text, ']]>', i, 'a CDATA section')
        continue
      }
      if (text.startsWith('<?', i)) {
        const end = after(text, '?>', i, 'a processing instruction')
        if (open.length > 0 && dropFrom < 0) cuts.push({ from: i, to: end })
        i = end
        continue
      }
      if (text.startsWith('<!', i)) throw new XmlPageError('The xml answer has a declaration inside an element.')
      const tag = readTag(text, i)
      if (tag.kind === 'end') {
        if (open.length === 0) {
          if (tag.name !== root.name) throw new XmlPageError(`The xml answer closes </${tag.name}> where </${root.name}> was expected.`)
          i = tag.end
          break
        }
        const expected = open.pop()
        if (tag.name !== expected) throw new XmlPageError(`The xml answer closes </${tag.name}> where </${expected}> was expected.`)
        if (open.length === dropFrom) {
          cuts.push({ from: cuts.pop()!.from, to: tag.end })
          dropFrom = -1
        }
        i = tag.end
        if (open.length === 0) keepChild(i)
        continue
      }
      if (open.length === 0) {
        childStart = i
        childName = tag.name
      }
      if (dropFrom < 0) {
        const start = text.slice(i, tag.end)
        if (isXInclude(tag.name, start)) {
          // Left out whole, from its start tag to its end tag (the end is set when it closes).
          cuts.push({ from: i, to: tag.end })
          if (!tag.selfClosing) dropFrom = open.length
        } else {
          for (const declaration of start.matchAll(XINCLUDE_DECLARATION)) cuts.push({ from: i + declaration.index, to: i + declaration.index + declaration[0].length })
        }
      }
      i = tag.end
      if (tag.selfClosing) {
        if (open.length === 0) keepChild(i)
      } else {
        open.push(tag.name)
      }
    }
  }
  // After the root: only white space, comments and processing instructions.
  for (;;) {
    i = skipSpace(text, i)
    if (i >= text.length) break
    if (text.startsWith('<!--', i)) i = after(text, '-->', i, 'a comment')
    else if (text.startsWith('<?', i)) i = after(text, '?>', i, 'a processing instruction')
    else throw new XmlPageError(`The xml answer has more after </${root.name}>.`)
  }
  return page
}

/**
 * The start of the merged document: the first page's prolog and root start
 * tag, its `count` attribute set to the rows the export asked for (as a page's
 * `count` is what it asked for), and its children other than rows.
 */
export function xmlHead(first: XmlPage, rowsAsked: number): string {
  // An empty page may close its root at once (`<results/>`); the merged one holds rows.
  const start = first.rootStart.replace(/(\scount\s*=\s*)(["'])[^"']*\2/, `$1"${rowsAsked}"`).replace(/\s*\/>$/, '>')
  let head = `${first.prolog}${start}\n`
  for (const child of first.children) if (child.name !== XML_ROW_ELEMENT) head += `  ${child.text}\n`
  return head
}

/** A page's rows, each as its own text. */
export function xmlRows(page: XmlPage): string[] {
  return page.children.filter((child) => child.name === XML_ROW_ELEMENT).map((child) => child.text)
}

export function xmlTail(first: XmlPage): string {
  return `</${first.rootName}>\n`
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++
  return i
}

function after(text: string, end: string, from: number, what: string): number {
  const at = text.indexOf(end, from)
  if (at < 0) throw new XmlPageError(`The xml answer has ${what} that never ends.`)
  return at + end.length
}

/** The tag at `i` (which is `<`): its kind, name and where it ends; attribute values may hold `>`. */
function readTag(text: string, i: number): { kind: 'start' | 'end'; name: string; selfClosing: boolean; end: number } {
  const closing = text.charCodeAt(i + 1) === 47 /* / */
  const nameAt = i + (closing ? 2 : 1)
  const name = NAME.exec(text.slice(nameAt, nameAt + 200))?.[0]
  if (!name) throw new XmlPageError(`The xml answer has a malformed tag at character ${i + 1}.`)
  let j = nameAt + name.length
  let quote = 0
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (quote !== 0) {
      if (c === quote) quote = 0
    } else if (c === 34 || c === 39) {
      if (closing) break
      quote = c
    } else if (c === 60 /* < */) {
      break
    } else if (c === 62 /* > */) {
      const selfClosing = !closing && text.charCodeAt(j - 1) === 47
      return { kind: closing ? 'end' : 'start', name, selfClosing, end: j + 1 }
    }
  }
  throw new XmlPageError(`The xml answer has a tag that never ends at character ${i + 1}.`)
}
