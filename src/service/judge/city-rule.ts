import { seededRandom, textSeed } from '../../shared/seeded-random'

/**
 * THE RULE of the example set (examples/world.qxw.json, "World cities
 * (synthetic judgments)"): a city's grade for a query from the city's own
 * name and population, never its rank. scripts/make-example-set.ts grades the
 * set's raters by it, and the demo service's stand-in judge (demo-judge.ts)
 * grades by it too, so the two cannot drift apart.
 */

/** Lower case, no accents, punctuation as single spaces: "Washington, D.C." is "washington d c". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/**
 * The example set's misspelled queries and the spelling each means: the set's
 * notes say a misspelled query is graded against the spelling it means.
 */
export const MEANT_SPELLING: ReadonlyMap<string, string> = new Map([
  ['sao paolo', 'sao paulo'],
  ['buenos aries', 'buenos aires'],
  ['kuala lumpor', 'kuala lumpur'],
])

/** The folded text the rule compares names with: the query, or the spelling a known misspelling means. */
export function ruleQuery(query: string): string {
  const folded = fold(query)
  return MEANT_SPELLING.get(folded) ?? folded
}

/** The name is the query, or the query and a trailing "City" (New York City for "new york"). */
function namedExactly(name: string, query: string): boolean {
  return name === query || name === `${query} city`
}

/** The query is the start of the name (whole words or not): "san" starts "santiago" and "san diego". */
function startsWith(name: string, query: string): boolean {
  return name.startsWith(query)
}

/** The query stands in the name as whole words: "san jose" in "puerto san jose". */
function holdsWords(name: string, query: string): boolean {
  return ` ${name} `.includes(` ${query} `)
}

export interface City {
  name: string
  population: number
}

/** Which clause of the rule gave the grade: what an explanation of it says. */
export type RuleReason =
  | 'exact-million'
  | 'exact-largest'
  | 'exact'
  | 'exact-small'
  | 'starts-large'
  | 'starts'
  | 'words'
  | 'small'
  | 'unrelated'

/** A grade with the clause that gave it; gradeOf is its grade. */
export function ruleGrade(city: City, q: string, largest: number, factor = 1): { grade: number; reason: RuleReason } {
  const name = fold(city.name)
  const population = city.population
  if (namedExactly(name, q)) {
    if (population >= 1_000_000 * factor) return { grade: 3, reason: 'exact-million' }
    if (population >= largest && population >= 10_000 * factor) return { grade: 3, reason: 'exact-largest' }
    if (population >= 10_000 * factor) return { grade: 2, reason: 'exact' }
    return { grade: 1, reason: 'exact-small' }
  }
  const starts = startsWith(name, q)
  if (starts && population >= 500_000 * factor) return { grade: 2, reason: 'starts-large' }
  const words = holdsWords(name, q)
  if ((starts || words) && population >= 50_000 * factor) return { grade: 1, reason: starts ? 'starts' : 'words' }
  return { grade: 0, reason: starts || words ? 'small' : 'unrelated' }
}

/**
 * THE RULE: a city's grade for a query, from the city's own data only. `q`
 * is the folded query (or the spelling a misspelled query means, ruleQuery);
 * `largest` is the population of the dataset's most populous place named
 * exactly so (largestByName). `factor` multiplies every number of
 * inhabitants: 1 is the rule as written, 2 a stricter reading of it, 0.5 a
 * more lenient one.
 */
export function gradeOf(city: City, q: string, largest: number, factor = 1): number {
  return ruleGrade(city, q, largest, factor).grade
}

/** The population of the most populous place of each folded name; "X City" also counts as named "X". */
export function largestByName(cities: Iterable<City>): Map<string, number> {
  const largest = new Map<string, number>()
  for (const city of cities) {
    const name = fold(city.name)
    const population = city.population
    for (const key of name.endsWith(' city') ? [name, name.slice(0, -' city'.length)] : [name]) {
      largest.set(key, Math.max(largest.get(key) ?? 0, population))
    }
  }
  return largest
}

/**
 * A grade moved one step on `share` of the items: up or down with equal
 * chance, inward at the ends of the 0–3 scale (0 → 1, 3 → 2). The draw is
 * seeded by `seedText` (a rater, query and item), not by the order items come
 * in, so the same item is always moved, or not, the same way.
 */
export function movedOneStep(grade: number, seedText: string, share: number): number {
  const random = seededRandom(textSeed(seedText))
  if (random() >= share) return grade
  const step = random() < 0.5 ? -1 : 1
  const moved = grade + step
  return moved < 0 || moved > 3 ? grade - step : moved
}
