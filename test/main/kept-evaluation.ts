import { readFileSync } from 'node:fs'
import type { AppCore } from '../../src/main/app/app-core'
import { DOWNLOAD_PATH } from '../../src/main/host/download-tickets'
import { EvaluationSchema, type Evaluation } from '../../src/shared/relevance/evaluation'
import { EvaluationHeadSchema, MAX_RANKING_PAGE, RankingPageSchema } from '../../src/shared/relevance/evaluation-head'
import { call } from './support'

/**
 * A kept evaluation whole, as the window's channels give it: its head
 * (eval:get), then its rankings a page at a time (eval:rankings), checked
 * with the schema of a whole evaluation.
 */
export async function keptEvaluation(core: AppCore, id: string): Promise<Evaluation> {
  const { rankingCount, previews: _previews, ...head } = EvaluationHeadSchema.parse(await call(core, 'eval:get', { id }))
  const rankings = []
  for (let offset = 0; offset < rankingCount; offset += MAX_RANKING_PAGE) {
    rankings.push(...RankingPageSchema.parse(await call(core, 'eval:rankings', { id, offset, limit: MAX_RANKING_PAGE })).rankings)
  }
  return EvaluationSchema.parse({ ...head, rankings })
}

/**
 * Export TREC run as the browser host hands it over: main writes the file
 * and answers a one-time download address, whose file is read here (as the
 * download route would serve it).
 */
export async function runFileOf(core: AppCore, id: string): Promise<{ fileName: string; queries: number; text: string }> {
  const reply = await call<{ fileName: string; queries: number; downloadUrl: string | null }>(core, 'eval:run-file', { id })
  if (!reply.downloadUrl?.startsWith(DOWNLOAD_PATH) || !core.downloads) throw new Error(`eval:run-file gave no download address: ${JSON.stringify(reply)}`)
  const file = core.downloads.take(reply.downloadUrl.slice(DOWNLOAD_PATH.length))
  if (!file) throw new Error('the download ticket was not known')
  return { fileName: file.fileName, queries: reply.queries, text: readFileSync(file.path, 'utf8') }
}
