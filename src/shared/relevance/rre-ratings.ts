import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth'
import { formatPath, type Path } from '../query/request-json'
import { checkItem, short, withoutBom, type Importer } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'

/**
 * The ratings JSON of Sease's Rated Ranking Evaluator, written and read:
 * topics, query groups and queries (either upper level may be left out), a
 * query's text its placeholder, and rated documents in each of the shapes
 * RRE's tools write. The largest of the formats, as RRE's nesting and its
 * tools' several shapes are read as RRE itself reads them.
 */

// Writing

/** A JSON value whose objects keep their keys in the order given: a Map, as a plain object would put integer-like docids ("10", "2") first, in numeric order. */
type JsonOut = string | number | readonly JsonOut[] | ReadonlyMap<string, JsonOut>

function jsonText(value: JsonOut, indent = ''): string {
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value)
  const inner = `${indent}  `
  if (value instanceof Map) {
    if (value.size === 0) return '{}'
    const members = [...(value as ReadonlyMap<string, JsonOut>)].map(([key, member]) => `${inner}${JSON.stringify(key)}: ${jsonText(member, inner)}`)
    return `{\n${members.join(',\n')}\n${indent}}`
  }
  const items = value as readonly JsonOut[]
  if (items.length === 0) return '[]'
  return `[\n${items.map((item) => `${inner}${jsonText(item, inner)}`).join(',\n')}\n${indent}]`
}

/**
 * RRE ratings: a query group a query, named by its text, with that one query
 * (its `$query` placeholder) and its judgments as `{"docid": {"gain": g}}`.
 * RRE wants a template for every query; the set's template is a request of
 * this app, not an RRE template file, so the file names `template.json`
 * (as Quepid's RRE export does) for the person to supply.
 */
export function rreText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
  const groups: JsonOut[] = set.queries.map((query) => {
    const documents = new Map<string, JsonOut>()
    for (const judgment of byQuery.get(query.id) ?? []) documents.set(judgment.item, new Map([['gain', judgment.grade]]))
    const rreQuery = new Map<string, JsonOut>([
      ['template', 'template.json'],
      ['placeholders', new Map([['$query', query.text]])],
    ])
    return new Map<string, JsonOut>([
      ['name', query.text],
      ['queries', [rreQuery]],
      ['relevant_documents', documents],
    ])
  })
  const root = new Map<string, JsonOut>([
    ['index', set.name],
    ['id_field', 'id'],
    ['query_groups', groups],
  ])
  return `${jsonText(root)}\n`
}

// Reading

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value that is a text, or a number read as its text (RRE reads both with asText). */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

interface RatedDocument {
  item: string
  grade: number
  where: string
}

/**
 * RRE's ratings, read as RRE's Engine reads them: `topics`, each with
 * `query_groups`, each with `queries` (a level left out is the node itself);
 * a query's text is its `query_placeholder` placeholder (`$query` unless the
 * file names another), else its first placeholder. A group's
 * `relevant_documents` judge each of its queries; one on a query (as
 * Quepid's RRE export writes them) judges that query alone.
 *
 * JSON.parse keeps the last of two equal keys, so a docid given twice in one
 * `relevant_documents` object is read once, with its last gain.
 */
export function readRre(text: string, reader: Importer): string | null {
  let data: unknown
  try {
    data = JSON.parse(withoutBom(text))
  } catch (error) {
    return `The file is not JSON: ${error instanceof Error ? error.message : String(error)}`
  }
  if (nestedDeeperThan(data)) return `The file nests deeper than ${MAX_JSON_DEPTH} levels; RRE ratings are a few levels deep, so this is not one.`
  if (!isObject(data) || !(Object.hasOwn(data, 'topics') || Object.hasOwn(data, 'query_groups') || Object.hasOwn(data, 'queries'))) {
    return 'The file is not RRE ratings: its JSON is not an object with "topics", "query_groups" or "queries".'
  }
  const placeholder = typeof data.query_placeholder === 'string' ? data.query_placeholder : '$query'
  // Reading stops at the importer's cap wherever it loops: past it, the file is refused whatever else it holds.
  for (const topic of levels(data, [], 'topics', reader)) {
    for (const group of levels(topic.node, topic.path, 'query_groups', reader)) {
      if (reader.full) return null
      readGroup(group.node, group.path, placeholder, reader)
    }
    if (reader.full) return null
  }
  return null
}

/** The nodes under `key`, or the node itself when it has no such key (as RRE's Engine reads a level left out). */
function levels(node: JsonObject, path: Path, key: string, reader: Importer): { node: JsonObject; path: Path }[] {
  if (!Object.hasOwn(node, key)) return [{ node, path }]
  const list = node[key]
  if (!Array.isArray(list)) {
    reader.problem(formatPath([...path, key]), 'is not a list')
    return []
  }
  const out: { node: JsonObject; path: Path }[] = []
  list.forEach((child: unknown, index) => {
    if (isObject(child)) out.push({ node: child, path: [...path, key, index] })
    else reader.problem(formatPath([...path, key, index]), 'is not an object')
  })
  return out
}

function readGroup(group: JsonObject, path: Path, placeholder: string, reader: Importer): void {
  const queries = group.queries
  if (!Array.isArray(queries)) {
    reader.problem(formatPath([...path, 'queries']), queries === undefined ? 'is missing: a query group lists its queries' : 'is not a list')
    return
  }
  const shared = Object.hasOwn(group, 'relevant_documents') ? ratedDocuments(group.relevant_documents, [...path, 'relevant_documents'], reader) : []
  // The group's documents judge each query it names once, however many of its entries name that query: the work
  // stays within the file's own size (entries × documents would not).
  const judgedShared = new Set<string>()
  const judge = (id: string, documents: readonly RatedDocument[]) => {
    for (const rated of documents) {
      if (reader.full) return
      reader.judge(rated.where, id, rated.item, rated.grade)
    }
  }
  for (let index = 0; index < queries.length && !reader.full; index++) {
    const query: unknown = queries[index]
    const at: Path = [...path, 'queries', index]
    if (!isObject(query)) {
      reader.problem(formatPath(at), 'is not an object')
      continue
    }
    const text = queryText(query, placeholder)
    if (text === null) {
      reader.problem(formatPath([...at, 'placeholders']), `has no "${short(placeholder)}" placeholder (nor any other) to take the query's text from`)
      continue
    }
    const own = Object.hasOwn(query, 'relevant_documents') ? ratedDocuments(query.relevant_documents, [...at, 'relevant_documents'], reader) : []
    const id = reader.queryByText(formatPath([...at, 'placeholders']), text)
    if (id === null) continue
    if (!judgedShared.has(id)) {
      judgedShared.add(id)
      judge(id, shared)
    }
    judge(id, own)
  }
}

function queryText(query: JsonObject, placeholder: string): string | null {
  const placeholders = query.placeholders
  if (!isObject(placeholders)) return null
  const named = Object.hasOwn(placeholders, placeholder) ? scalarText(placeholders[placeholder]) : null
  if (named !== null) return named
  for (const value of Object.values(placeholders)) {
    const text = scalarText(value)
    if (text !== null) return text
  }
  return null
}

/**
 * `relevant_documents` in any of the shapes RRE's tools write:
 * `{"docid": {"gain": 3}}` (RRE's own examples), `{"3": ["docid", …]}`
 * (Quepid's RRE export; RRE's Engine reads it as the first), and
 * `[{"document_id": "docid", "gain": 3}]` (RRE's dataset generator). Each
 * entry of an object is read by its own shape, so the first two may mix.
 */
function ratedDocuments(value: unknown, path: Path, reader: Importer): RatedDocument[] {
  const out: RatedDocument[] = []
  const add = (itemValue: unknown, itemPath: Path, grade: number | null) => {
    const where = formatPath(itemPath)
    const item = scalarText(itemValue)
    if (item === null) {
      reader.problem(where, 'is not a docid (a text)')
      return
    }
    if (checkItem(reader, where, item) && grade !== null) out.push({ item, grade, where })
  }
  const gainOf = (raw: unknown, where: string): number | null => {
    if (raw === undefined) {
      reader.problem(where, 'is missing: each rated document has a gain')
      return null
    }
    // A gain that is not a text or a number (true, null, a list) is refused by the same rule, quoted as JSON.
    return reader.grade(where, scalarText(raw) ?? JSON.stringify(raw))
  }
  if (Array.isArray(value)) {
    value.forEach((entry: unknown, index) => {
      const at: Path = [...path, index]
      if (!isObject(entry)) {
        reader.problem(formatPath(at), 'is not an object ({"document_id": …, "gain": …})')
        return
      }
      add(entry.document_id, [...at, 'document_id'], gainOf(entry.gain, formatPath([...at, 'gain'])))
    })
    return out
  }
  if (!isObject(value)) {
    reader.problem(formatPath(path), 'is neither an object of rated documents nor a list of them')
    return out
  }
  for (const [key, entry] of Object.entries(value)) {
    const at: Path = [...path, key]
    if (Array.isArray(entry)) {
      // {"3": ["a", "b"]}: the key is the gain of every docid listed.
      const grade = reader.grade(formatPath(at), key)
      entry.forEach((item: unknown, index) => add(item, [...at, index], grade))
    } else if (isObject(entry)) {
      add(key, at, gainOf(entry.gain, formatPath([...at, 'gain'])))
    } else {
      reader.problem(formatPath(at), 'is neither {"gain": …} nor a list of docids')
    }
  }
  return out
}
