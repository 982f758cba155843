import { slug } from '../../shared/export/file-name'
import { suggestedFileName } from '../../shared/file-names'
import type { Evaluation, QueryRanking } from '../../shared/relevance/evaluation'
import { formatRunFile } from '../../shared/relevance/judgment-files'

/**
 * An evaluation as a TREC run file (`qid Q0 docid rank score tag`): the
 * window's Export TREC run and `query-explorer eval --trec-run` both write
 * it from here, so the same evaluation gives the same file, its tag
 * included (both name the evaluation's target alike: the connection, then
 * API, config and version, shared/test-cases/target-text.ts).
 */

/** The run's tag (the last column): what it ran on as one word, "demo-config-production". */
export function runTag(evaluation: Pick<Evaluation, 'targetText'>): string {
  return slug(evaluation.targetText) || 'query-explorer'
}

export interface RunFile {
  text: string
  /** How many queries it holds: those that ran (a failed query has no ranking to write). */
  queries: number
}

/** Throws, with a sentence naming the query and item, when a ranking cannot be written (white space in an id). */
export function evaluationRunFile(evaluation: Pick<Evaluation, 'targetText' | 'rankings'>): RunFile {
  const ran = evaluation.rankings.filter((ranking) => ranking.error === null).map((ranking) => ({ queryId: ranking.id, items: ranking.items }))
  return { text: formatRunFile(ran, runTag(evaluation)), queries: ran.length }
}

/**
 * One query's lines of the run file: the run file is these, a query after
 * another, so a kept evaluation is written a query at a time and gives the
 * same bytes as evaluationRunFile over the whole of it. A failed query has none.
 */
export function runFileChunk(ranking: Pick<QueryRanking, 'id' | 'items' | 'error'>, tag: string): string {
  return ranking.error === null ? formatRunFile([{ queryId: ranking.id, items: ranking.items }], tag) : ''
}

/** The name the window offers it under, by the one rule for file names: "Italian cities (Demo, config default).run.txt". */
export function runFileName(evaluation: Pick<Evaluation, 'set' | 'targetText'>): string {
  return suggestedFileName(`${evaluation.set} (${evaluation.targetText})`, 'run.txt', 'evaluation')
}
