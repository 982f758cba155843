import { createHash } from 'node:crypto'
import type { Judge } from '../../shared/relevance/llm-judge'
import type { Scale } from '../../shared/relevance/query-set'

/**
 * Digests that tell one judge's answer from another's. The prompt digest is
 * kept with each grade (on the judgment's line in the file): it covers the
 * rendered prompt *and* the model settings it was sent with (provider, model,
 * api-version, temperature, seed, structured answers), so a grade whose
 * digest differs from what the judge gives now is stale when the prompt, the
 * item or the model changed. The cache key adds where the calls go and the
 * scale's grades, so judging again with the same settings costs nothing, and
 * an answer given on another scale is never taken from the cache.
 */

/** The settings that change what the model answers, besides the prompt. */
export type ModelSettings = Pick<Judge, 'provider' | 'model' | 'apiVersion' | 'temperature' | 'seed' | 'structured'>

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** SHA-256 (64 hex) of the model settings and the rendered prompt, as sent: the digest kept on a judge's grade. */
export function promptDigest(settings: ModelSettings, prompt: string): string {
  // A JSON array: no value can run into the next one and collide with other settings.
  return sha256(
    JSON.stringify(['judge-prompt/2', settings.provider, settings.model, settings.apiVersion ?? null, settings.temperature, settings.seed ?? null, settings.structured, prompt]),
  )
}

/**
 * SHA-256 of the base URL, the scale (each grade and its label: the
 * structured answer's schema and the prompt's scale are made from them) and
 * the prompt digest (the model settings and the prompt, which holds the
 * query and the item's fields as shown). `baseUrl` is best the judge's as
 * its file names it: a demo service started on another port each run then
 * keeps its cache. Takes the digest, so a planned item's key costs no second
 * rendering or hashing of its prompt.
 */
export function cacheKey(baseUrl: string, scale: Scale, digest: string): string {
  return sha256(JSON.stringify(['judge-cache/2', baseUrl, scale.map((step) => [step.grade, step.label]), digest]))
}
