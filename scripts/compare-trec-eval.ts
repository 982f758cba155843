/**
 * Evidence, not a test: checks src/shared/relevance/metrics.ts against the
 * real trec_eval, which CI cannot fetch or build.
 *
 *   npx tsx scripts/compare-trec-eval.ts /path/to/trec_eval [queries] [seed]
 *
 * Generates random queries (seeded: the same seed gives the same files) with
 * grades 0..3 and rankings that mix judged and unjudged items without
 * repeats, writes qrels and run files to a temporary folder (the run lists
 * each ranking in order with strictly decreasing scores, so trec_eval's own
 * sort, which breaks score ties by docno, cannot reorder it), runs trec_eval
 * -q under five settings and compares every per-query figure with
 * scoreQuery(linear gain), and each mean ("all" row) with the mean over the
 * queries that have judgments. Prints the largest absolute difference per
 * metric and whether everything agrees within 1e-4 (trec_eval prints 4
 * decimals, so agreement means a difference of at most 0.00005 plus float noise).
 * Exits 1 when something disagrees.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { metricKey, scoreQuery, type MetricSpec } from '../src/shared/relevance/metrics'
import { DEFAULT_SCALE, type MetricSettings } from '../src/shared/relevance/query-set'
import { seededRandom } from '../src/shared/seeded-random'

const [binary, countText = '400', seedText = '20260101'] = process.argv.slice(2)
if (!binary) {
  console.error('usage: npx tsx scripts/compare-trec-eval.ts /path/to/trec_eval [queries] [seed]')
  process.exit(2)
}
const QUERIES = Number(countText)
const TOLERANCE = 1e-4
/** Half the last printed decimal: a figure within this of trec_eval's prints the same. */
const ROUNDING = 5e-5 + 1e-9

const random = seededRandom(Number(seedText))
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))

interface Query {
  id: string
  grades: Map<string, number>
  ranking: string[]
}

function makeQuery(index: number): Query {
  const id = `q${index}`
  const grades = new Map<string, number>()
  // Every 25th query has no judgments at all (trec_eval leaves it out); every 10th has only grade 0.
  const judgedCount = index % 25 === 0 ? 0 : between(1, 40)
  const allZero = index % 10 === 0
  const skew = random()
  for (let i = 0; i < judgedCount; i++) {
    const roll = random()
    const grade = allZero ? 0 : roll < 0.35 + skew * 0.4 ? 0 : roll < 0.8 ? 1 : roll < 0.93 ? 2 : 3
    grades.set(`d${i}`, grade)
  }
  // Candidates: some judged items and some unjudged ones, shuffled; ranking length 1..130.
  const candidates = [...grades.keys()].filter(() => random() < 0.8)
  const unjudged = between(0, 60)
  for (let i = 0; i < unjudged; i++) candidates.push(`u${i}`)
  if (candidates.length === 0) candidates.push('u0')
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = between(0, i)
    ;[candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!]
  }
  return { id, grades, ranking: candidates.slice(0, between(1, Math.min(130, candidates.length))) }
}

const queries = Array.from({ length: QUERIES }, (_, index) => makeQuery(index + 1))

const folder = mkdtempSync(join(tmpdir(), 'compare-trec-eval-'))
const qrelsPath = join(folder, 'qrels')
const runPath = join(folder, 'run')
writeFileSync(
  qrelsPath,
  queries.flatMap((query) => [...query.grades].map(([item, grade]) => `${query.id} 0 ${item} ${grade}\n`)).join(''),
)
writeFileSync(
  runPath,
  queries
    .flatMap((query) => query.ranking.map((item, index) => `${query.id} Q0 ${item} ${index + 1} ${query.ranking.length - index} run\n`))
    .join(''),
)

/** trec_eval's measure names → our metrics. */
const MEASURES: [string, MetricSpec][] = [
  ['ndcg_cut_5', { name: 'ndcg', k: 5 }],
  ['ndcg_cut_10', { name: 'ndcg', k: 10 }],
  ['ndcg_cut_20', { name: 'ndcg', k: 20 }],
  ['ndcg', { name: 'ndcg', k: null }],
  ['P_5', { name: 'p', k: 5 }],
  ['P_10', { name: 'p', k: 10 }],
  ['P_100', { name: 'p', k: 100 }],
  ['map', { name: 'ap', k: null }],
  ['map_cut_10', { name: 'ap', k: 10 }],
  ['recip_rank', { name: 'rr', k: null }],
  ['recall_10', { name: 'recall', k: 10 }],
  ['recall_100', { name: 'recall', k: 100 }],
  ['set_recall', { name: 'recall', k: null }],
]
const ARGS = ['-m', 'ndcg_cut.5,10,20', '-m', 'ndcg', '-m', 'P.5,10,100', '-m', 'map', '-m', 'map_cut.10', '-m', 'recip_rank', '-m', 'recall.10,100', '-m', 'set_recall', '-m', 'num_q']

const SETTINGS: { label: string; flags: string[]; settings: MetricSettings }[] = [
  { label: 'linear, unjudged zero, threshold 1 (trec_eval defaults)', flags: [], settings: { gain: 'linear', unjudged: 'zero', threshold: 1 } },
  { label: 'linear, unjudged skip, threshold 1 (trec_eval -J)', flags: ['-J'], settings: { gain: 'linear', unjudged: 'skip', threshold: 1 } },
  { label: 'linear, unjudged zero, threshold 2 (trec_eval -l 2)', flags: ['-l', '2'], settings: { gain: 'linear', unjudged: 'zero', threshold: 2 } },
  { label: 'linear, unjudged skip, threshold 2 (trec_eval -J -l 2)', flags: ['-J', '-l', '2'], settings: { gain: 'linear', unjudged: 'skip', threshold: 2 } },
  { label: 'linear, unjudged zero, threshold 0 (trec_eval -l 0)', flags: ['-l', '0'], settings: { gain: 'linear', unjudged: 'zero', threshold: 0 } },
]

const judgedQueries = queries.filter((query) => query.grades.size > 0)
const version = spawnSync(binary, ['-v'], { encoding: 'utf8' })
console.log(`${binary}: ${`${version.stdout}${version.stderr}`.trim()}`)
console.log(
  `${queries.length} queries in the run (seed ${seedText}); ${judgedQueries.length} with judgments, ` +
    `${judgedQueries.filter((query) => [...query.grades.values()].every((grade) => grade === 0)).length} of them all grade 0; ` +
    `${queries.reduce((sum, query) => sum + query.ranking.length, 0)} ranked items\n`,
)

let allAgree = true
let withinRounding = true
for (const { label, flags, settings } of SETTINGS) {
  const output = execFileSync(binary, ['-q', ...flags, ...ARGS, qrelsPath, runPath], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const theirs = new Map<string, number>() // `${measure}\t${qid}` → value
  for (const line of output.split('\n')) {
    const [measure, qid, value] = line.trim().split(/\s+/)
    if (measure && qid && value !== undefined) theirs.set(`${measure}\t${qid}`, Number(value))
  }
  const specs = MEASURES.map(([, spec]) => spec)
  const ours = new Map(judgedQueries.map((query) => [query.id, scoreQuery(query.ranking, query.grades, specs, settings, DEFAULT_SCALE)]))
  console.log(`== ${label}`)
  const evaluated = theirs.get('num_q\tall')
  const sameQueries = evaluated === judgedQueries.length
  console.log(`   trec_eval evaluated ${evaluated} queries; ${judgedQueries.length} have judgments${sameQueries ? '' : '  MISMATCH'}`)
  if (!sameQueries) allAgree = false
  for (const [measure, spec] of MEASURES) {
    let worst = 0
    let worstQuery = ''
    let compared = 0
    for (const query of judgedQueries) {
      const expected = theirs.get(`${measure}\t${query.id}`)
      if (expected === undefined) {
        console.log(`   ${measure}: trec_eval printed nothing for ${query.id}`)
        allAgree = false
        continue
      }
      compared++
      const difference = Math.abs(ours.get(query.id)![metricKey(spec)]! - expected)
      if (difference > worst) [worst, worstQuery] = [difference, query.id]
    }
    const mean = judgedQueries.reduce((sum, query) => sum + ours.get(query.id)![metricKey(spec)]!, 0) / judgedQueries.length
    const meanDifference = Math.abs(mean - (theirs.get(`${measure}\tall`) ?? Number.NaN))
    const ok = worst <= TOLERANCE && meanDifference <= TOLERANCE
    if (!ok) allAgree = false
    if (worst > ROUNDING) withinRounding = false
    console.log(
      `   ${metricKey(spec).padEnd(11)} vs ${measure.padEnd(11)} ${compared} queries, max |diff| ${worst.toFixed(6)}${worst > 0 ? ` (${worstQuery})` : ''}, ` +
        `mean ${mean.toFixed(4)} vs ${theirs.get(`${measure}\tall`)?.toFixed(4)}  ${ok ? 'agree' : 'DISAGREE'}`,
    )
  }
  console.log()
}
if (allAgree) rmSync(folder, { recursive: true, force: true })
else console.log(`The qrels and run files are kept in ${folder}.`)
console.log(allAgree ? `All figures agree within ${TOLERANCE}.` : 'Some figures disagree (see above).')
if (withinRounding) console.log('Every per-query difference is within 0.00005: each figure rounds to the value trec_eval printed.')
process.exit(allAgree ? 0 : 1)
