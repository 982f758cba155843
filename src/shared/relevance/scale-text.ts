import { ScaleSchema, type Scale } from './query-set'

/**
 * A scale as a person types it in the set dialog: grades with their words,
 * separated by commas, "0 Poor, 1 Fair, 2 Good, 3 Perfect", the form
 * `scaleText` (query-set.ts) writes.
 */

export function parseScaleText(text: string): { ok: true; scale: Scale } | { ok: false; message: string } {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean)
  const steps = []
  for (const part of parts) {
    const match = /^(\d{1,3})\s+(.+)$/.exec(part)
    if (!match) return { ok: false, message: `"${part.slice(0, 60)}" is not a grade and its words, such as "2 Good"` }
    steps.push({ grade: Number(match[1]), label: match[2]!.trim() })
  }
  const parsed = ScaleSchema.safeParse(steps)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    if (issue.code === 'too_small' && issue.path.length === 0) return { ok: false, message: 'a scale has at least two grades' }
    if (issue.code === 'too_big' && issue.path.length === 0) return { ok: false, message: 'a scale has at most eleven grades' }
    return { ok: false, message: issue.message.replace(/^Invalid input: /, '') }
  }
  return { ok: true, scale: parsed.data }
}
