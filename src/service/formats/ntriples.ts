import type { Page } from '../query/render'

/** N-Triples (W3C): one statement per line; objects that are IRIs stay IRIs, the rest are literals. */

const IRI = /^https?:\/\/[^\s<>"{}|\\^`]+$/

function iri(value: string): string {
  return `<${value.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)}>`
}

function literal(value: string): string {
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
  return `"${escaped}"`
}

export function toNTriples(page: Page): string {
  return page.items
    .map((item) => {
      const [subject = '', predicate = '', object = ''] = item.tuple.map((cell) => (typeof cell === 'string' ? cell : cell.id))
      return `${iri(subject)} ${iri(predicate)} ${IRI.test(object) ? iri(object) : literal(object)} .\n`
    })
    .join('')
}
