/**
 * Evidence, not a test: checks src/shared/relevance/rater-agreement.ts against
 * scikit-learn, statsmodels and the `krippendorff` package, which CI does not
 * have (scripts/reference/agreement.py computes their figures).
 *
 *   npx tsx scripts/reference/compare-agreement.ts KRIPPENDORFF_DIR [sets] [seed]
 *
 * KRIPPENDORFF_DIR is the folder holding krippendorff/krippendorff.py (the
 * package's source, github:pln-fing-udelar/fast-krippendorff). Generates
 * random sets (seeded: the same seed gives the same sets) on the scale 0..3
 * with 2 to 5 raters who read a hidden true grade each with their own bias
 * and noise, and leave some items ungraded (some items get one grade only),
 * runs both, and prints the largest absolute difference per figure and any
 * figure one side gives and the other calls undefined. Exits 1 on a
 * difference above 1e-9 or a disagreement on what is undefined.
 *
 *   npx tsx scripts/reference/compare-agreement.ts --time
 *
 * times raterAgreement once on 200,000 judgments by 5 raters.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { raterAgreement, type AgreementReport } from '../../src/shared/relevance/rater-agreement'
import { seededRandom } from '../../src/shared/seeded-random'

interface Judgment {
  query: string
  item: string
  rater: string
  grade: number
}

const SCALE = [0, 1, 2, 3]

/** A set of `queries` × `items` items graded by `raters` raters, each grading an item with probability `coverage`. */
function randomSet(random: () => number, raters: number, queries: number, items: number, coverage: number): Judgment[] {
  const out: Judgment[] = []
  const bias = Array.from({ length: raters }, () => Math.floor(random() * 3) - 1)
  const noise = Array.from({ length: raters }, () => random())
  // One rater in four is lazy: always the same grade, which kappa must read as chance.
  const lazy = raters > 2 && random() < 0.25 ? Math.floor(random() * raters) : -1
  for (let q = 0; q < queries; q++) {
    for (let i = 0; i < items; i++) {
      const truth = Math.floor(random() * 4)
      for (let r = 0; r < raters; r++) {
        if (random() > coverage) continue
        let grade = truth + (random() < 0.5 ? bias[r]! : 0) + (random() < noise[r]! ? Math.floor(random() * 3) - 1 : 0)
        if (r === lazy) grade = 1
        out.push({ query: `q${q}`, item: `d${i}`, rater: `r${r}`, grade: Math.min(3, Math.max(0, grade)) })
      }
    }
  }
  return out
}

function reference(dir: string, set: { scale: number[]; judgments: Judgment[] }): Omit<AgreementReport, 'raters'> {
  const run = spawnSync('/usr/bin/python3', [join(__dirname, 'agreement.py'), '--krippendorff', dir], { input: JSON.stringify(set), encoding: 'utf8', maxBuffer: 1 << 28 })
  if (run.status !== 0) throw new Error(`agreement.py failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as Omit<AgreementReport, 'raters'>
}

function time(): void {
  const random = seededRandom(35)
  // 200,000 judgments: 1,000 queries × 50 items × 5 raters at coverage 0.8.
  const judgments = randomSet(random, 5, 1_000, 50, 0.8)
  while (judgments.length < 200_000) judgments.push(...randomSet(random, 5, 1, 50, 0.8).map((j) => ({ ...j, query: `extra${judgments.length}` })))
  judgments.length = 200_000
  raterAgreement({ scale: SCALE, judgments: judgments.slice(0, 1_000) })
  const started = performance.now()
  const report = raterAgreement({ scale: SCALE, judgments })
  const elapsed = performance.now() - started
  console.log(`raterAgreement: ${judgments.length.toLocaleString('en-US')} judgments by ${report.raters.length} raters, ${report.alpha.n.toLocaleString('en-US')} items with two grades or more, ${report.queries.length} queries: ${elapsed.toFixed(0)} ms`)
}

function compare(dir: string, sets: number, seed: number): void {
  const random = seededRandom(seed)
  const largest = new Map<string, number>()
  const problems: string[] = []
  const check = (figure: string, ours: number | null, theirs: number | null, where: string) => {
    if ((ours === null) !== (theirs === null)) {
      problems.push(`${where} ${figure}: ours ${ours}, reference ${theirs}`)
      return
    }
    if (!largest.has(figure)) largest.set(figure, 0)
    if (ours === null || theirs === null) return
    largest.set(figure, Math.max(largest.get(figure)!, Math.abs(ours - theirs)))
  }
  const figures = { compared: 0, undefinedBoth: 0 }
  for (let s = 0; s < sets; s++) {
    const raters = 2 + (s % 4)
    const queries = 1 + Math.floor(random() * 12)
    const items = 1 + Math.floor(random() * 25)
    const coverage = 0.4 + random() * 0.6
    const set = { scale: SCALE, judgments: randomSet(random, raters, queries, items, coverage) }
    const ours = raterAgreement(set)
    const theirs = reference(dir, set)
    const where = `set ${s} (${raters} raters, ${set.judgments.length} judgments)`
    const count = (a: number | null, b: number | null) => {
      figures.compared++
      if (a === null && b === null) figures.undefinedBoth++
    }
    theirs.pairs.forEach((pair, index) => {
      const own = ours.pairs[index]!
      if (own.a !== pair.a || own.b !== pair.b || own.n !== pair.n) problems.push(`${where}: pair ${own.a}–${own.b} n ${own.n} against ${pair.a}–${pair.b} n ${pair.n}`)
      for (const name of ['agreement', 'kappa', 'kappaLinear', 'kappaQuadratic'] as const) {
        check(name, own[name], pair[name], `${where} ${pair.a}–${pair.b}`)
        count(own[name], pair[name])
      }
    })
    if (ours.fleiss.n !== theirs.fleiss.n || ours.fleiss.raters !== theirs.fleiss.raters) problems.push(`${where}: Fleiss on ${ours.fleiss.n}×${ours.fleiss.raters} against ${theirs.fleiss.n}×${theirs.fleiss.raters}`)
    check('fleiss', ours.fleiss.kappa, theirs.fleiss.kappa, where)
    count(ours.fleiss.kappa, theirs.fleiss.kappa)
    if (ours.alpha.n !== theirs.alpha.n) problems.push(`${where}: alpha n ${ours.alpha.n} against ${theirs.alpha.n}`)
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      check(`alpha ${level}`, ours.alpha[level], theirs.alpha[level], where)
      count(ours.alpha[level], theirs.alpha[level])
    }
    theirs.queries.forEach((query, index) => {
      const own = ours.queries[index]!
      if (own.id !== query.id || own.n !== query.n) problems.push(`${where}: query ${own.id} n ${own.n} against ${query.id} n ${query.n}`)
      check('query alpha', own.alpha, query.alpha, `${where} ${query.id}`)
      count(own.alpha, query.alpha)
    })
  }
  console.log(`${sets} sets, seed ${seed}: ${figures.compared} figures compared, ${figures.undefinedBoth} undefined on both sides`)
  for (const [figure, difference] of largest) console.log(`${figure.padEnd(16)} largest difference ${difference.toExponential(2)}`)
  for (const problem of problems) console.log(problem)
  const worst = Math.max(...largest.values())
  console.log(problems.length === 0 && worst <= 1e-9 ? 'all agree' : 'DISAGREE')
  if (problems.length > 0 || worst > 1e-9) process.exitCode = 1
}

const args = process.argv.slice(2)
if (args[0] === '--time') time()
else if (!args[0]) {
  console.error('usage: npx tsx scripts/reference/compare-agreement.ts KRIPPENDORFF_DIR [sets] [seed] | --time')
  process.exitCode = 2
} else compare(args[0], Number(args[1] ?? 40), Number(args[2] ?? 20261128))
