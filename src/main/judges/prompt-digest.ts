import { createHash } from 'node:crypto'
import type { Judge } from '../../shared/relevance/llm-judge'

/**
 * Digests that tell one judge's answer from another's. The prompt digest is
 * kept with each grade (on the judgment's line in the file): a grade whose
 * digest differs from what the judge's prompt gives now is stale. The cache
 * key adds every setting that changes what the model answers, so judging
 * again with the same settings costs nothing and changing the model or the
 * prompt asks again.
 */

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** SHA-256 (64 hex) of the rendered prompt, as sent. */
export function promptDigest(prompt: string): string {
  return sha256(prompt)
}

/**
 * SHA-256 of the provider, base URL, model, api-version, temperature, seed,
 * structured output and the prompt (which holds the query and the item's
 * fields as shown). `baseUrl` is best the judge's as its file names it: a
 * demo service started on another port each run then keeps its cache.
 */
export function cacheKey(
  judge: Pick<Judge, 'provider' | 'model' | 'apiVersion' | 'temperature' | 'seed' | 'structured'>,
  baseUrl: string,
  prompt: string,
): string {
  // A JSON array: no value can run into the next one and collide with other settings.
  return sha256(
    JSON.stringify(['judge-cache/1', judge.provider, baseUrl, judge.model, judge.apiVersion ?? null, judge.temperature, judge.seed ?? null, judge.structured, promptDigest(prompt)]),
  )
}
