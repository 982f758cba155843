import type { RankedQuery, RankingMemo } from '../evaluation/run-set'

/**
 * What lets the evaluations of one experiment share a query's ranking: two
 * sides on the same target, and the attribution's last prefix (the whole
 * template on the baseline's target), ask the same pages, so the later one
 * asks none of them and takes the ranking already made. Only rankings are
 * kept, the very arrays the evaluations keep (at most depth × queries ×
 * sides items), never a page: each page is let go once read. A ranking that
 * failed or was cancelled is forgotten, so it is asked again.
 */
export function rankingMemo(): { memo: RankingMemo; reused: () => number } {
  const known = new Map<string, Promise<RankedQuery>>()
  let reused = 0
  return {
    /** Pages answered from rankings already made instead of asked again. */
    reused: () => reused,
    memo(key, rank) {
      const found = known.get(key)
      if (found) {
        return found.then((ranked) => {
          reused += ranked.pages
          return ranked
        })
      }
      const asked = rank()
      known.set(key, asked)
      asked.catch(() => known.delete(key))
      return asked
    },
  }
}
