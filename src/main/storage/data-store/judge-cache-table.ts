import type Database from 'libsql'
import type { JudgeCache } from '../../judges/judge-plan'
import type { DataStore } from './data-store'

/**
 * The LLM judges' cache (issue 36): each grade a judge gave, by its cache
 * key (prompt-digest.ts's cacheKey: the judge's settings, where its calls
 * go, and the rendered prompt, which holds the query and the item's
 * content), so judging the same thing again costs no call. Runs on the
 * store's thread only; main reaches it through DataStore.call
 * (`judgeCache.get`, `judgeCache.set`) or judgeCacheOf below.
 */

/** The newest this many grades are kept; older ones go as new ones come (a cache, not a record). */
export const JUDGE_CACHE_KEEP = 500_000
/** How many writes between two trims: the trim is a scan of the index, not of the writes. */
const TRIM_EVERY = 1_000

export interface CachedGrade {
  grade: number
  explanation: string
  promptDigest: string
}

export class JudgeCacheTable {
  private readonly read: Database.Statement
  private readonly write: Database.Statement
  private readonly trim: Database.Statement
  private writes = 0

  constructor(
    db: Database.Database,
    private readonly keep = JUDGE_CACHE_KEEP,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.read = db.prepare('SELECT grade, explanation, prompt_digest FROM judge_cache WHERE key = ?')
    // A key graded again (the same prompt with scope "all") takes the newer answer, and a newer rowid: the trim keeps it.
    this.write = db.prepare('INSERT OR REPLACE INTO judge_cache (key, grade, explanation, prompt_digest, at) VALUES (?, ?, ?, ?, ?)')
    this.trim = db.prepare('DELETE FROM judge_cache WHERE rowid <= (SELECT rowid FROM judge_cache ORDER BY rowid DESC LIMIT 1 OFFSET ?)')
  }

  get(key: string): CachedGrade | null {
    const row = this.read.raw(true).get(key) as unknown[] | undefined
    if (!row) return null
    const [grade, explanation, promptDigest] = row
    return { grade: Number(grade), explanation: String(explanation), promptDigest: String(promptDigest) }
  }

  set(key: string, value: CachedGrade): void {
    this.write.run(key, value.grade, value.explanation, value.promptDigest, this.now().toISOString())
    if (++this.writes % TRIM_EVERY === 0) this.trim.run(this.keep)
  }
}

/** The cache a judging run uses, over the data folder's database. */
export function judgeCacheOf(data: DataStore): JudgeCache {
  return {
    get: async (key) => {
      const found = await data.call('judgeCache.get', key)
      return found ? { grade: found.grade, explanation: found.explanation } : null
    },
    set: async (key, value) => {
      await data.call('judgeCache.set', key, value)
    },
  }
}
