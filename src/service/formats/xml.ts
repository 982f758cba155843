import type { Page } from '../query/render'
import { renderObject } from '../query/render'
import type { ResultSet } from '../query/result-set'
import { xmlAttribute, xmlText } from '../../shared/text/xml-escape'

/**
 * XML rendering of a results page (enabled per configuration). Mirrors the
 * JSON shape: results > item > column > object|value. Values are escaped by
 * the shared XML escaper, which drops what XML 1.0 forbids (a control
 * character in a value cannot make the answer ill-formed).
 */

function objectXml(value: Record<string, unknown>, indent: string): string {
  const classes = (value.class as string[]).map((name) => `${indent}  <class>${xmlText(name)}</class>\n`).join('')
  let attributes = ''
  if (value.attributes) {
    attributes = `${indent}  <attributes>\n`
    for (const [name, attribute] of Object.entries(value.attributes as Record<string, unknown>)) {
      if (attribute !== null && typeof attribute === 'object') {
        attributes += `${indent}    <attribute name="${xmlAttribute(name)}">\n${objectXml(attribute as Record<string, unknown>, `${indent}      `)}${indent}    </attribute>\n`
      } else {
        attributes += `${indent}    <attribute name="${xmlAttribute(name)}"${attribute === null ? ' null="true"/>' : `>${xmlText(String(attribute))}</attribute>`}\n`
      }
    }
    attributes += `${indent}  </attributes>\n`
  }
  return `${indent}<object id="${xmlAttribute(String(value.id))}">\n${classes}${attributes}${indent}</object>\n`
}

export function toXml(result: ResultSet, page: Page, level: number): string {
  let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<results offset="${page.offset}" count="${page.count}">\n`
  for (const type of result.output) xml += `  <type>${xmlText(type)}</type>\n`
  page.items.forEach((item, index) => {
    xml += `  <item rank="${page.offset + index + 1}" probability="${item.p}">\n`
    item.tuple.forEach((cell, column) => {
      xml += `    <column index="${column + 1}">\n`
      xml += typeof cell === 'string' ? `      <value>${xmlText(cell)}</value>\n` : objectXml(renderObject(cell, level), '      ')
      xml += '    </column>\n'
    })
    xml += '  </item>\n'
  })
  return `${xml}</results>\n`
}
