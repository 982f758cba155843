import { raterAgreement } from '../src/shared/relevance/rater-agreement'
import { seededRandom } from '../src/shared/seeded-random'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * Agreement at the schema's limit (issue 35): 200,000 judgments by 5 raters
 * (1,000 queries × 40 items, every rater grading every item, grades 0–3 from
 * a fixed seed, the raters agreeing most of the time). The baseline, in the
 * same run, is the least any such figure costs: one pass putting each grade
 * under its item in a Map.
 */

const SCALE = [0, 1, 2, 3]
const RATERS = ['ana', 'ben', 'chloe', 'dev', 'emi']

function judgmentsAtLimit(): { query: string; item: string; rater: string; grade: number }[] {
  const random = seededRandom(35)
  const judgments: { query: string; item: string; rater: string; grade: number }[] = []
  for (let q = 0; q < 1_000; q++) {
    for (let i = 0; i < 40; i++) {
      const truth = Math.floor(random() * 4)
      for (const rater of RATERS) {
        // Four times in five a rater gives the item's grade, else one step off.
        const off = random() < 0.8 ? 0 : random() < 0.5 ? -1 : 1
        judgments.push({ query: `q${q}`, item: `item-${q}-${i}`, rater, grade: Math.min(3, Math.max(0, truth + off)) })
      }
    }
  }
  return judgments
}

function timed(work: () => void, runs: number): number {
  work()
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    work()
    times.push(performance.now() - started)
  }
  return median(times)
}

export async function benchAgreement(): Promise<BenchResult[]> {
  const judgments = judgmentsAtLimit()
  const agreement = timed(() => void raterAgreement({ scale: SCALE, judgments }), 5)
  const grouping = timed(() => {
    const byItem = new Map<string, number[]>()
    for (const judgment of judgments) {
      const key = `${judgment.query}\u0000${judgment.item}`
      const grades = byItem.get(key)
      if (grades) grades.push(judgment.grade)
      else byItem.set(key, [judgment.grade])
    }
  }, 5)
  const ms = Math.round(agreement)
  return [
    { name: 'agreement: 200,000 judgments by 5 raters (pairs, Fleiss, alpha, per query)', value: ms, unit: 'ms', aim: atMost(ms, 1_000, 'ms') },
    { name: 'agreement / one pass grouping the grades by item (baseline)', value: Number((agreement / grouping).toFixed(2)), unit: '×', note: `grouping: ${Math.round(grouping)} ms` },
  ]
}

runWhenMain(__filename, benchAgreement)
