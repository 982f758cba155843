import { existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'libsql'
import type { z } from 'zod'
import { RECORD_ID } from '../kept-records'
import { asideName } from './history-table'
import { scalar } from './schema'

export interface FolderImport {
  imported: number
  /** Record files that did not read as one (damaged, cut short, another version): left in the folder set aside. */
  skipped: number
}

/**
 * Imports a folder of kept records (`evaluations/`, `experiments/`: an
 * `index.json` of summaries, newest last, and a `<id>.json` a record) once,
 * then renames the folder aside (`evaluations.imported`; kept, never
 * deleted), as history.jsonl is. Records go in oldest first, in the index's
 * order where it reads, else by when each file was written; a file that does
 * not read as a record is skipped and counted. The record that the folder
 * was imported goes in with the last record, so a crash before the rename
 * only renames on the next start.
 */
export function importOldFolder<R extends { id: string }>(
  db: Database.Database,
  dataDir: string,
  folder: string,
  schema: z.ZodType<R>,
  add: (record: R) => void,
): FolderImport | null {
  const path = join(dataDir, folder)
  if (!existsSync(path) || !statSync(path).isDirectory()) return null
  const key = `${folder}/`
  const done = scalar(db.prepare('SELECT records FROM imported WHERE file = ?'), key) as number | undefined
  let result: FolderImport = { imported: Number(done ?? 0), skipped: 0 }
  if (done === undefined) {
    result = { imported: 0, skipped: 0 }
    for (const file of recordFiles(path)) {
      const record = readRecord(join(path, file.name), schema)
      if (!record || record.id !== file.id) {
        result.skipped++
        continue
      }
      try {
        add(record)
        result.imported++
      } catch {
        // Read, but refused by the check before keeping (a value its schema no longer takes): skipped like a damaged file.
        result.skipped++
      }
    }
    db.prepare('INSERT INTO imported (file, at, records) VALUES (?, ?, ?)').run(key, new Date().toISOString(), result.imported)
  }
  renameSync(path, asideName(path))
  return result
}

/** The folder's record files, oldest first: in the index's order where it lists them, then the rest by when each was written. */
function recordFiles(path: string): { id: string; name: string }[] {
  const order = new Map<string, number>()
  try {
    const index = JSON.parse(readFileSync(join(path, 'index.json'), 'utf8')) as { records?: { id?: unknown }[] }
    index.records?.forEach((entry, at) => typeof entry?.id === 'string' && order.set(entry.id, at))
  } catch {
    // An index cut short or missing: the files' times give the order.
  }
  const files = readdirSync(path)
    .filter((name) => name.endsWith('.json') && RECORD_ID.test(name.slice(0, -'.json'.length)))
    .map((name) => ({ id: name.slice(0, -'.json'.length), name, written: statSync(join(path, name)).mtimeMs }))
  return files.sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity) || a.written - b.written || (a.id < b.id ? -1 : 1))
}

function readRecord<R>(file: string, schema: z.ZodType<R>): R | null {
  try {
    const read = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return read.success ? read.data : null
  } catch {
    return null
  }
}
