/**
 * Writes the judged query set of examples/world.qxw.json, so a newcomer sees
 * nDCG on the first evening: `npx tsx scripts/make-example-set.ts`.
 *
 * For each query of the fixed list below, the set's template ("City search
 * (query set template)") runs on the embedded demo service with the `default`
 * and with the `production` configuration; the top POOL_DEPTH cities of both
 * are pooled (TREC-style, so both configurations' top 10 are judged) and each
 * pooled city is graded by three synthetic raters (RATERS), three readings
 * of one RULE that look only at the city's own data (its name and population,
 * and which city of the dataset is the most populous of that name) against the
 * query's text, never at the rank either configuration gave it: the rule as
 * written (gradeOf), a stricter reading (twice the inhabitants for each grade,
 * a misspelled query a grade lower) and a more lenient one (half the
 * inhabitants). The two readings also move 10 % of their grades one step
 * (noisy), drawn from a seed fixed by the rater, query and item, so the
 * Agreement view shows raters that mostly, not wholly, agree. Every rater
 * grades every pooled item, so Fleiss' kappa and alpha use all of them. The
 * set keeps no settings: the metrics use the mean of the three grades.
 *
 * The file is read with parseWorkspace, the template query, the set and the
 * demo's stand-in judge (JUDGE) are added (or replaced, by name), and the file is written back with
 * serializeWorkspace: running the script again gives the same bytes. At the
 * end it prints each configuration's mean nDCG@10 (under the mean of the
 * three grades) and the raters' agreement (rater-agreement.ts) on the set as
 * read back from the file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startService } from '../src/service'
import { loadDataset } from '../src/service/dataset/load'
import { DEMO_JUDGE } from '../src/service/judge/demo-judge'
import { MEANT_SPELLING, gradeOf, largestByName, movedOneStep, ruleQuery, type City as RuleCity } from '../src/service/judge/city-rule'
import { itemKey } from '../src/shared/compare/item-key'
import type { QueryRequest } from '../src/shared/query/model'
import { buildUrl } from '../src/shared/query/url-build'
import { DEFAULT_SCALE, QUERY_PLACEHOLDER, type Judgment, type QuerySet, type SetQuery } from '../src/shared/relevance/query-set'
import { JudgeSchema, type Judge } from '../src/shared/relevance/llm-judge'
import { raterAgreement } from '../src/shared/relevance/rater-agreement'
import type { Rater } from '../src/shared/relevance/raters'
import { parseWorkspace, serializeWorkspace, type SavedQuery } from '../src/shared/workspace/workspace-file'

const FILE = join(__dirname, '../examples/world.qxw.json')
const TEMPLATE_NAME = 'City search (query set template)'
const SET_NAME = 'World cities (synthetic judgments)'
/** Of the grades of the strict and the lenient reading, the share moved one step (noisy). */
const NOISE_SHARE = 0.1
const CONFIGS = ['default', 'production'] as const
/** How deep each configuration's list is pooled for judging. */
const POOL_DEPTH = 20
/** The cut-off of the nDCG printed at the end. */
const CUTOFF = 10

type Tag = 'exact' | 'ambiguous' | 'prefix' | 'misspelled' | 'multi-word'

interface QuerySpec {
  text: string
  /** A misspelled query is graded against the spelling it means (city-rule.ts's MEANT_SPELLING, which the demo judge reads too). */
  tag: Tag
}

const QUERIES: QuerySpec[] = [
  // Well-known cities, by their name.
  { text: 'paris', tag: 'exact' },
  { text: 'lisbon', tag: 'exact' },
  { text: 'osaka', tag: 'exact' },
  { text: 'tokyo', tag: 'exact' },
  { text: 'berlin', tag: 'exact' },
  { text: 'london', tag: 'exact' },
  { text: 'cairo', tag: 'exact' },
  { text: 'lagos', tag: 'exact' },
  { text: 'sydney', tag: 'exact' },
  { text: 'moscow', tag: 'exact' },
  { text: 'mumbai', tag: 'exact' },
  // Names many places share.
  { text: 'san jose', tag: 'ambiguous' },
  { text: 'springfield', tag: 'ambiguous' },
  { text: 'santiago', tag: 'ambiguous' },
  { text: 'portland', tag: 'ambiguous' },
  { text: 'cambridge', tag: 'ambiguous' },
  { text: 'victoria', tag: 'ambiguous' },
  { text: 'hamilton', tag: 'ambiguous' },
  { text: 'alexandria', tag: 'ambiguous' },
  { text: 'valencia', tag: 'ambiguous' },
  { text: 'kingston', tag: 'ambiguous' },
  // The start of many names, as typed into a search box.
  { text: 'san', tag: 'prefix' },
  { text: 'port', tag: 'prefix' },
  { text: 'new', tag: 'prefix' },
  { text: 'saint', tag: 'prefix' },
  { text: 'santa', tag: 'prefix' },
  { text: 'los', tag: 'prefix' },
  // Misspellings: one word still matches, the other does not.
  { text: 'sao paolo', tag: 'misspelled' },
  { text: 'buenos aries', tag: 'misspelled' },
  { text: 'kuala lumpor', tag: 'misspelled' },
  // Names of more than one word.
  { text: 'new york', tag: 'multi-word' },
  { text: 'hong kong', tag: 'multi-word' },
  { text: 'los angeles', tag: 'multi-word' },
  { text: 'mexico city', tag: 'multi-word' },
  { text: 'rio de janeiro', tag: 'multi-word' },
  { text: 'san francisco', tag: 'multi-word' },
]

const SET_NOTES = [
  'Synthetic judgments, made by rules in scripts/make-example-set.ts and not by people, of the pooled top 20 of the default and of the production configuration; the metrics use the mean of the three raters\' grades.',
  'Each city is graded from its own name and population against the query (a misspelled query against the spelling it means; compared without case, accents or punctuation, a trailing "City" aside), never from its rank.',
  '"rule: as written" grades: 3 Perfect, the name is the query and the city has 1,000,000 inhabitants or more, or is the most populous place of that name with 10,000 or more; 2 Good, the name is the query (10,000 or more) or starts with it (500,000 or more);',
  '1 Fair, the name is the query (a smaller place), starts with it or holds it as whole words (50,000 or more); 0 Poor otherwise.',
  '"rule: strict" is the same rule with twice each number of inhabitants, and a misspelled query one grade lower; "rule: lenient" the same rule with half each number.',
  'Both then move 1 grade in 10 one step up or down (inward at 0 and 3), drawn from a seed fixed by the rater, query and item.',
].join(' ')

/** The example's judge: the demo service's stand-in (src/service/judge/demo-judge.ts), on the file's Demo connection's origin. */
const JUDGE: Judge = JudgeSchema.parse({
  name: 'demo',
  provider: 'openai',
  baseUrl: 'http://127.0.0.1:8080/v1',
  model: DEMO_JUDGE,
  fields: ['name', 'country', 'population'],
  notes:
    "The demo's stand-in judge: the embedded demo service answers OpenAI's Chat Completions at /v1 with the model demo-judge, which is not a language model. " +
    "It reads the query and the city's name and population from the prompt, grades by the example set's rule (the set's notes: what \"rule: as written\" grades) and moves 12 % of its grades one step with a fixed seed, so it agrees with the set's raters well but not perfectly. " +
    'It needs no key. Pick the model demo-judge-busy (429 with Retry-After: 1 to every 4th call) or demo-judge-flaky (grade 7, off the scale, for 10 % of items) to see retries, budgets and failures.',
})

const TEMPLATE_NOTES =
  `The template of the query set "${SET_NAME}": when the set runs, ${QUERY_PLACEHOLDER} in the search text is filled with each query of the set in turn. ` +
  `Run on its own, it searches for the literal text ${QUERY_PLACEHOLDER}.`

interface City extends RuleCity {
  id: string
}

/**
 * A rater's grade moved one step, on NOISE_SHARE of the items (movedOneStep),
 * seeded by the rater, query and item, not by the order items are pooled in,
 * so a change to one query's pool leaves the other queries' noise as it was.
 */
function noisy(grade: number, rater: string, query: string, item: string): number {
  return movedOneStep(grade, `${rater}\u0000${query}\u0000${item}`, NOISE_SHARE)
}

interface RaterSpec {
  rater: Rater
  /** The rater's reading of THE RULE, before noise. */
  rule: (city: City, q: string, largest: number, spec: QuerySpec) => number
  /** Whether NOISE_SHARE of its grades move one step (noisy). */
  noise: boolean
}

/**
 * The set's raters. Their kind is "model": like an LLM judge or a click model
 * they are a program's grades, made here and not by a person (person) nor
 * read from another tool's file (import). Names short enough for a table.
 * The rule as written stays exact, so the notes' account of it holds for
 * every one of its grades.
 */
const RATERS: RaterSpec[] = [
  { rater: { name: 'rule: as written', kind: 'model' }, rule: (city, q, largest) => gradeOf(city, q, largest), noise: false },
  {
    // Twice the inhabitants for each grade, and a misspelled query a grade lower (the searcher typed something else).
    rater: { name: 'rule: strict', kind: 'model' },
    rule: (city, q, largest, spec) => Math.max(0, gradeOf(city, q, largest, 2) - (spec.tag === 'misspelled' ? 1 : 0)),
    noise: true,
  },
  // Half the inhabitants for each grade.
  { rater: { name: 'rule: lenient', kind: 'model' }, rule: (city, q, largest) => gradeOf(city, q, largest, 0.5), noise: true },
]

/** Gain 2^g − 1, DCG Σ gain / log2(i + 1), the ideal from all the query's judged items; unjudged is 0. */
function ndcg(ranking: readonly string[], grades: ReadonlyMap<string, number>, cutoff: number): number {
  const gain = (grade: number) => 2 ** grade - 1
  const dcg = (gs: readonly number[]) => gs.slice(0, cutoff).reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0)
  const ideal = dcg([...grades.values()].sort((a, b) => b - a))
  return ideal === 0 ? 0 : dcg(ranking.map((id) => grades.get(id) ?? 0)) / ideal
}

function fill(request: QueryRequest, text: string, config: string, count: number): QueryRequest {
  return {
    ...request,
    steps: request.steps.map((step) =>
      'endpoint' in step
        ? { ...step, parameters: Object.fromEntries(Object.entries(step.parameters).map(([name, value]) => [name, value.split(QUERY_PLACEHOLDER).join(text)])) }
        : step,
    ),
    options: { ...request.options, config, count },
  }
}

async function main(): Promise<void> {
  const read = parseWorkspace(readFileSync(FILE, 'utf8'), 'world.qxw.json')
  if (!read.ok) throw new Error(read.message)
  const workspace = read.workspace

  const template: SavedQuery = {
    name: TEMPLATE_NAME,
    connection: 'demo',
    notes: TEMPLATE_NOTES,
    request: {
      workspace: 'world',
      api: 'places',
      steps: [{ endpoint: 'search', parameters: { query: QUERY_PLACEHOLDER } }],
      responseType: 'results',
      options: { config: 'default', count: 10 },
    },
  }
  const at = workspace.queries.findIndex((query) => query.name === TEMPLATE_NAME)
  if (at >= 0) workspace.queries[at] = template
  else workspace.queries.push(template)

  // The population of the most populous place of each name over the whole dataset; "X City" also counts as named "X".
  const largestOfName = largestByName(
    loadDataset().cities.map((city) => ({ name: String(city.attributes.name ?? ''), population: Number(city.attributes.population) || 0 })),
  )

  // The embedded demo service, asked over HTTP as any client asks it (the template's workspace is "world", the demo's).
  const service = await startService({ port: 0, log: () => undefined })
  const queries: SetQuery[] = []
  const judgments: Judgment[] = []
  const scores: Record<(typeof CONFIGS)[number], number[]> = { default: [], production: [] }
  try {
    const auth = await fetch(`${service.authUrl}/api/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ WorkspaceName: service.workspace, ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false }),
    })
    if (auth.status !== 200) throw new Error(`the demo refused a token: ${auth.status} ${await auth.text()}`)
    const bearer = ((await auth.json()) as { access_token: string }).access_token
    for (const [index, spec] of QUERIES.entries()) {
      const id = `q${String(index + 1).padStart(2, '0')}`
      queries.push({
        id,
        text: spec.text,
        ...(MEANT_SPELLING.has(spec.text) ? { notes: `Misspelled: graded as "${MEANT_SPELLING.get(spec.text)}".` } : {}),
        tags: [spec.tag],
      })
      const rankings = new Map<string, string[]>()
      const pool = new Map<string, City>()
      for (const config of CONFIGS) {
        const response = await fetch(buildUrl(service.queryUrl, fill(template.request, spec.text, config, POOL_DEPTH)), { headers: { Authorization: `Bearer ${bearer}` } })
        const body = await response.text()
        if (response.status !== 200) throw new Error(`"${spec.text}" on ${config} answered ${response.status}: ${body.slice(0, 300)}`)
        const items = (JSON.parse(body) as { items: { tuple: [{ attributes: { name: string; population: number } }] }[] }).items
        const ids: string[] = []
        for (const item of items) {
          const key = itemKey(item as never)
          const { name, population } = item.tuple[0].attributes
          ids.push(key)
          pool.set(key, { id: key, name, population: Number(population) || 0 })
        }
        rankings.set(config, ids)
      }
      const q = ruleQuery(spec.text)
      const largest = largestOfName.get(q) ?? 0
      // The grade the metrics use: the mean of the raters' (the set names no aggregate).
      const grades = new Map<string, number>()
      for (const city of pool.values()) {
        let sum = 0
        for (const { rater, rule, noise } of RATERS) {
          const exact = rule(city, q, largest, spec)
          const grade = noise ? noisy(exact, rater.name, id, city.id) : exact
          sum += grade
          judgments.push({ query: id, item: city.id, rater: rater.name, grade })
        }
        grades.set(city.id, sum / RATERS.length)
      }
      const line = CONFIGS.map((config) => {
        const score = ndcg(rankings.get(config)!.slice(0, CUTOFF), grades, CUTOFF)
        scores[config].push(score)
        return `${config} ${score.toFixed(3)}`
      })
      console.log(`${id} ${spec.text.padEnd(16)} ${spec.tag.padEnd(10)} judged ${String(pool.size).padStart(2)}  ${line.join('  ')}`)
    }
  } finally {
    await service.close()
  }

  const set: QuerySet = { name: SET_NAME, query: TEMPLATE_NAME, notes: SET_NOTES, raters: RATERS.map((spec) => spec.rater), queries, judgments }
  const sets = workspace.sets ?? []
  const place = sets.findIndex((existing) => existing.name === SET_NAME)
  if (place >= 0) sets[place] = set
  else sets.push(set)
  workspace.sets = sets
  const judges = workspace.judges ?? []
  const judgeAt = judges.findIndex((existing) => existing.name === JUDGE.name)
  if (judgeAt >= 0) judges[judgeAt] = JUDGE
  else judges.push(JUDGE)
  workspace.judges = judges
  writeFileSync(FILE, serializeWorkspace(workspace))

  console.log(`${queries.length} queries, ${judgments.length / RATERS.length} items, ${judgments.length} judgments`)
  for (const { rater } of RATERS) {
    const own = judgments.filter((judgment) => judgment.rater === rater.name)
    console.log(`  ${rater.name.padEnd(16)} ${[0, 1, 2, 3].map((grade) => `${grade}: ${own.filter((judgment) => judgment.grade === grade).length}`).join(', ')}`)
  }
  for (const config of CONFIGS) {
    const mean = scores[config].reduce((sum, score) => sum + score, 0) / scores[config].length
    console.log(`mean nDCG@${CUTOFF} ${config}: ${mean.toFixed(4)}`)
  }

  // Agreement as the app computes it, on the set as the file now holds it (so the file is also checked to open).
  const written = parseWorkspace(readFileSync(FILE, 'utf8'), 'world.qxw.json')
  if (!written.ok) throw new Error(written.message)
  const saved = written.workspace.sets!.find((existing) => existing.name === SET_NAME)!
  const report = raterAgreement({ scale: DEFAULT_SCALE.map((step) => step.grade), judgments: saved.judgments, raters: saved.raters ?? [] })
  const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
  for (const pair of report.pairs) {
    console.log(`${pair.a} × ${pair.b}: n ${pair.n}, agreement ${figure(pair.agreement)}, Cohen's kappa ${figure(pair.kappa)}, linear ${figure(pair.kappaLinear)}, quadratic ${figure(pair.kappaQuadratic)}`)
  }
  console.log(`Fleiss' kappa ${figure(report.fleiss.kappa)} (n ${report.fleiss.n}); Krippendorff's alpha nominal ${figure(report.alpha.nominal)}, ordinal ${figure(report.alpha.ordinal)}, interval ${figure(report.alpha.interval)} (n ${report.alpha.n})`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
