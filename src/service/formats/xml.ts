import type { Page } from '../query/render'
import { renderObject } from '../query/render'
import type { ResultSet } from '../query/result-set'

/**
 * XML rendering of a results page (enabled per configuration). Mirrors the
 * JSON shape: results > item > column > object|value.
 */

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function objectXml(value: Record<string, unknown>, indent: string): string {
  const classes = (value.class as string[]).map((name) => `${indent}  <class>${escape(name)}</class>\n`).join('')
  let attributes = ''
  if (value.attributes) {
    attributes = `${indent}  <attributes>\n`
    for (const [name, attribute] of Object.entries(value.attributes as Record<string, unknown>)) {
      if (attribute !== null && typeof attribute === 'object') {
        attributes += `${indent}    <attribute name="${escape(name)}">\n${objectXml(attribute as Record<string, unknown>, `${indent}      `)}${indent}    </attribute>\n`
      } else {
        attributes += `${indent}    <attribute name="${escape(name)}"${attribute === null ? ' null="true"/>' : `>${escape(String(attribute))}</attribute>`}\n`
      }
    }
    attributes += `${indent}  </attributes>\n`
  }
  return `${indent}<object id="${escape(String(value.id))}">\n${classes}${attributes}${indent}</object>\n`
}

export function toXml(result: ResultSet, page: Page, level: number): string {
  let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<results offset="${page.offset}" count="${page.count}">\n`
  for (const type of result.output) xml += `  <type>${type}</type>\n`
  page.items.forEach((item, index) => {
    xml += `  <item rank="${page.offset + index + 1}" probability="${item.p}">\n`
    item.tuple.forEach((cell, column) => {
      xml += `    <column index="${column + 1}">\n`
      xml += typeof cell === 'string' ? `      <value>${escape(cell)}</value>\n` : objectXml(renderObject(cell, level), '      ')
      xml += '    </column>\n'
    })
    xml += '  </item>\n'
  })
  return `${xml}</results>\n`
}
