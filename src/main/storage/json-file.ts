import { promises as fs } from 'node:fs'
import type { z } from 'zod'

/** A small JSON file of ours as read: absent, read and valid, or there but unreadable (not JSON, or not its schema). */
export type JsonFileRead<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'unreadable' }

/**
 * Reads and checks one of the app's own small files (connections, view
 * preferences). A read error other than "no such file" is thrown: the caller
 * decides whether that stops it.
 */
export async function readJsonFile<S extends z.ZodType>(path: string, schema: S): Promise<JsonFileRead<z.infer<S>>> {
  let text: string
  try {
    text = await fs.readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    throw error
  }
  let parsed: z.ZodSafeParseResult<z.infer<S>>
  try {
    parsed = schema.safeParse(JSON.parse(text))
  } catch {
    return { kind: 'unreadable' }
  }
  return parsed.success ? { kind: 'ok', value: parsed.data } : { kind: 'unreadable' }
}

/** Keeps an unreadable file for the user as `<path>.bad` instead of overwriting it; its new path. */
export async function setAside(path: string): Promise<string> {
  const aside = `${path}.bad`
  await fs.rename(path, aside)
  return aside
}
