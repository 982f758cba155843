import type { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'

/** Ids are ours (randomUUID); one read back from an old index or file name is checked before it names anything. */
export const RECORD_ID = /^[0-9a-f-]{36}$/

/** A sentence naming where a value breaks its schema and the rule: "rankings.0.probabilities.1: Invalid input: expected number, received Infinity". */
function firstIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]
  if (!issue) return 'not its shape'
  const path = [...(prefix === '' ? [] : [prefix]), ...issue.path.map(String)].join('.')
  return `${path === '' ? 'record' : path}: ${issue.message}`
}

/**
 * The record as it will be written, checked with the very schema it is read
 * back with: a value JSON cannot hold (Infinity, NaN: written as null) or a
 * field past its bound would make a record that is listed but never opens.
 * Throws (a validation error) a sentence naming the field and the rule. `path`: where the value
 * sits in the record ("rankings.12"), for a record checked in parts.
 */
export function checkedForKeeping<R>(schema: z.ZodType<R>, record: R, noun: string, path = ''): string {
  const checked = schema.safeParse(record)
  if (!checked.success) throw new ExplorerError('validation', `Not kept: the ${noun} would not read back (${firstIssue(checked.error, path)}).`)
  return JSON.stringify(record)
}
