import { ExplorerError } from '../ipc/errors'
import { checkItem, withoutBom, type Importer } from './judgment-import'
import type { Judgment, QuerySet } from './query-set'

/**
 * TREC's white-space-split files: trec_eval's qrels (`qid iter docid rel`),
 * written and read, the query named by its id in the set; and the run file
 * written for trec_eval to score, whose ids and items follow the same rule
 * of no white space.
 */

// Writing

/**
 * A TREC run file: `qid Q0 docid rank score tag`, one line per item, queries in set order.
 *
 * The score is `items.length - index`, strictly decreasing within a query:
 * trec_eval does not read the rank column but sorts a run by score, breaking
 * ties by docno, so equal scores (tied probabilities, say) would be
 * reordered and the run evaluated in an order the engine never returned.
 */
export function formatRunFile(rankings: readonly { queryId: string; items: readonly string[] }[], tag: string): string {
  if (tag === '' || /\s/.test(tag)) throw unwritable(`The run's tag "${tag}" cannot be written in a TREC run file: it must be one word with no white space.`)
  let out = ''
  for (const ranking of rankings) {
    if (ranking.queryId === '' || /\s/.test(ranking.queryId)) {
      throw unwritable(`The query id "${ranking.queryId}" cannot be written in a TREC run file: it has white space in it (or is empty), and TREC files split their lines on white space.`)
    }
    ranking.items.forEach((item, index) => {
      if (item === '' || /\s/.test(item)) throw unwritable(whiteSpaceItem(ranking.queryId, item, 'run'))
      out += `${ranking.queryId} Q0 ${item} ${index + 1} ${ranking.items.length - index} ${tag}\n`
    })
  }
  return out
}

/**
 * What the set or the run holds and a TREC file cannot: bad input, said in
 * words to whoever asked for the file (the window, the command line), not a
 * fault of the app's.
 */
function unwritable(message: string): ExplorerError {
  return new ExplorerError('validation', message)
}

function whiteSpaceItem(queryId: string, item: string, file: 'run' | 'qrels'): string {
  return `The item "${item}" of the query "${queryId}" cannot be written in a TREC ${file} file: it has white space in it (or is empty), and TREC files split their lines on white space.`
}

/** `qid 0 docid rel`, as trec_eval reads it (the iteration column is unused, 0 by custom); a query with no judgment has no line. */
export function qrelsText(set: QuerySet, byQuery: ReadonlyMap<string, readonly Judgment[]>): string {
  let out = ''
  for (const query of set.queries) {
    for (const judgment of byQuery.get(query.id) ?? []) {
      if (/\s/.test(judgment.item)) throw unwritable(whiteSpaceItem(query.id, judgment.item, 'qrels'))
      out += `${query.id} 0 ${judgment.item} ${judgment.grade}\n`
    }
  }
  return out
}

// Reading

/** trec_eval's qrels: `qid iter docid rel` split on white space; blank lines and `#` comments are read past. */
export function readQrels(text: string, reader: Importer): string | null {
  const lines = withoutBom(text).split(/\r\n|\r|\n/)
  for (let index = 0; index < lines.length && !reader.full; index++) {
    const content = lines[index]!.trim()
    if (content === '' || content.startsWith('#')) continue
    const where = `line ${index + 1}`
    const fields = content.split(/\s+/)
    if (fields.length !== 4) {
      reader.problem(where, `expected 4 fields (qid iter docid rel), found ${fields.length}`)
      continue
    }
    const [qid, , docid, rel] = fields as [string, string, string, string]
    const grade = reader.grade(where, rel)
    const itemOk = checkItem(reader, where, docid)
    const query = reader.queryById(where, qid)
    if (query === null || grade === null || !itemOk) continue
    reader.judge(where, query, docid, grade)
  }
  return null
}
