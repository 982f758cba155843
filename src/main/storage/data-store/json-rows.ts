import type Database from 'libsql'
import type { z } from 'zod'

/**
 * The JSON a row of the data folder's database holds, read back with the
 * schema it was checked with before it was written. A row that no longer
 * reads (cut short, written by hand or by another version) is null: lists
 * leave it out rather than fail on it.
 */
export function readJsonRow<S extends z.ZodType>(text: string, schema: S): z.infer<S> | null {
  try {
    const read = schema.safeParse(JSON.parse(text))
    return read.success ? read.data : null
  } catch {
    return null
  }
}

/** A table of kept records (evaluations, experiments) with a `summary` row each, and its set's name. */
export type KeptTable = 'evaluations' | 'experiments'

/** The kept records' summaries, newest first, of one set when named; a row that no longer reads is left out. */
export function keptSummaries<S extends z.ZodType>(db: Database.Database, table: KeptTable, set: string | undefined, schema: S): z.infer<S>[] {
  const texts = (
    set === undefined
      ? db.prepare(`SELECT summary FROM ${table} ORDER BY seq DESC`).pluck().all()
      : db.prepare(`SELECT summary FROM ${table} WHERE set_name = ? ORDER BY seq DESC`).pluck().all(set)
  ) as string[]
  return texts.flatMap((text) => {
    const read = readJsonRow(text, schema)
    return read === null ? [] : [read]
  })
}
