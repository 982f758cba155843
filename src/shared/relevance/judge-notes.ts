import { z } from 'zod'

/**
 * What an LLM judge's grade keeps beside the grade, on the judgment's line
 * (query-set.ts): the model's short explanation, and the digest of the
 * prompt that produced it (a changed prompt, model or item makes the grade
 * stale). Apart from llm-judge.ts, which reads the set's scale from query-set.ts.
 */

/** The longest explanation a grade keeps (the structured answer's bound too). */
export const MAX_EXPLANATION = 300
/** A prompt digest: SHA-256, lower-case hex. */
export const PromptDigestSchema = z.string().regex(/^[0-9a-f]{64}$/, 'is not a prompt digest (64 hex digits, SHA-256)')
export const ExplanationSchema = z.string().max(MAX_EXPLANATION)
