import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadDataset } from '../../src/service/dataset/load'
import type { Ref } from '../../src/service/dataset/model'
import { largestByName, ruleQuery } from '../../src/service/judge/city-rule'
import {
  DEMO_ERROR_SHARE,
  FLAKY_SHARE,
  OFF_SCALE_GRADE,
  answerText,
  demoGrade,
  readPrompt,
  unreadVerdict,
  type DemoModel,
} from '../../src/service/judge/demo-judge'
import { cohenKappa, percentAgreement } from '../../src/shared/relevance/cohen-kappa'
import { JudgeSchema, parseJudgeAnswer, renderJudgePrompt } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'
import { parseWorkspace } from '../../src/shared/workspace/workspace-file'

/**
 * The demo's stand-in judge without HTTP: what it reads from a prompt the
 * app renders (renderJudgePrompt), the grade and explanation it gives, its
 * seeded error and its flaky variant; and how well it agrees with the example
 * set's "rule: as written" over every pooled item: well, not perfectly.
 */

const read = parseWorkspace(readFileSync(join(__dirname, '../../examples/world.qxw.json'), 'utf8'), 'world.qxw.json')
if (!read.ok) throw new Error(read.message)
const example = read.workspace
const judge = example.judges!.find((existing) => existing.name === 'demo')!
const prompt = (query: string, fields: Record<string, unknown>, examples: Parameters<typeof renderJudgePrompt>[4] = []) =>
  renderJudgePrompt(judge, DEFAULT_SCALE, query, { item: 'x', fields }, examples)

describe('readPrompt', () => {
  it("reads the last Query line and the result's name and population, past few-shot examples", () => {
    const text = prompt('paris', { name: 'Paris', country: 'FR', population: 2_138_551 }, [
      { query: 'lyon', fields: { name: 'Lyon', country: 'FR', population: 472_317 }, grade: 3 },
      { query: 'osaka', fields: { name: 'Osaka', country: 'JP', population: 2_592_413 }, grade: 3 },
    ])
    expect(text.match(/Query:/g)).toHaveLength(3)
    expect(readPrompt(text)).toEqual({ ok: true, facts: { query: 'paris', name: 'Paris', population: 2_138_551 } })
  })

  it('reads a template that puts the result above the query, and a population written with commas', () => {
    const custom = JudgeSchema.parse({ ...judge, prompt: 'Result:\n{{item}}\n\nQuery: {{query}}\nGrade it on {{scale}}' })
    const text = renderJudgePrompt(custom, DEFAULT_SCALE, 'lisbon', { item: 'x', fields: { name: 'Lisbon', population: '517,802' } })
    expect(readPrompt(text)).toEqual({ ok: true, facts: { query: 'lisbon', name: 'Lisbon', population: 517_802 } })
  })

  it('says which lines it could not find', () => {
    expect(readPrompt('Grade this: Paris')).toEqual({ ok: false, missing: ['a "Query:" line', 'a "name:" line', 'a "population:" line'] })
    expect(readPrompt(prompt('paris', { name: 'Paris', country: 'FR' }))).toEqual({ ok: false, missing: ['a "population:" line'] })
    expect(readPrompt(prompt('paris', { name: 'Paris', population: null }))).toEqual({ ok: false, missing: ['a number on the "population:" line (it reads "null")'] })
  })
})

describe('demoGrade', () => {
  it('grades by the rule as written and says why', () => {
    expect(demoGrade({ query: 'paris', name: 'Paris', population: 2_138_551 }, 2_138_551, 'demo-judge')).toEqual({
      grade: 3,
      explanation: 'Named exactly "Paris", 2,138,551 inhabitants: a million or more.',
    })
    // One of the items the seeded error moves: the explanation says so, beside the rule's reason.
    expect(demoGrade({ query: 'lisbon', name: 'Lisbon', population: 517_802 }, 517_802, 'demo-judge')).toEqual({
      grade: 2,
      explanation: "Named exactly \"Lisbon\", 517,802 inhabitants: the most populous place of that name. The demo judge's seeded error moved the rule's grade 3 to 2.",
    })
    expect(demoGrade({ query: 'sao paolo', name: 'São Paulo', population: 10_021_295 }, 10_021_295, 'demo-judge')).toEqual({
      grade: 3,
      explanation: 'Read "sao paolo" as "sao paulo". Named exactly "São Paulo", 10,021,295 inhabitants: a million or more.',
    })
  })

  it('moves about 12 % of the grades one step, the same items each time, and says so', () => {
    let moved = 0
    const n = 2_000
    for (let i = 0; i < n; i++) {
      const facts = { query: 'san', name: `San Town ${i}`, population: 600_000 }
      const verdict = demoGrade(facts, 0, 'demo-judge')
      expect(demoGrade(facts, 0, 'demo-judge')).toEqual(verdict)
      if (verdict.grade !== 2) {
        moved++
        expect([1, 3]).toContain(verdict.grade)
        expect(verdict.explanation).toContain(`The demo judge's seeded error moved the rule's grade 2 to ${verdict.grade}.`)
      } else {
        expect(verdict.explanation).not.toContain('seeded error')
      }
    }
    expect(moved / n).toBeGreaterThan(DEMO_ERROR_SHARE - 0.03)
    expect(moved / n).toBeLessThan(DEMO_ERROR_SHARE + 0.03)
  })

  it('demo-judge-flaky answers off the scale for about 10 % of items, the same items each time; demo-judge-busy grades as demo-judge', () => {
    let off = 0
    const n = 2_000
    for (let i = 0; i < n; i++) {
      const facts = { query: 'san', name: `San Town ${i}`, population: 600_000 }
      const flaky = demoGrade(facts, 0, 'demo-judge-flaky')
      expect(demoGrade(facts, 0, 'demo-judge-flaky')).toEqual(flaky)
      if (flaky.grade === OFF_SCALE_GRADE) off++
      else expect(flaky).toEqual(demoGrade(facts, 0, 'demo-judge'))
      expect(demoGrade(facts, 0, 'demo-judge-busy')).toEqual(demoGrade(facts, 0, 'demo-judge'))
    }
    expect(off / n).toBeGreaterThan(FLAKY_SHARE - 0.03)
    expect(off / n).toBeLessThan(FLAKY_SHARE + 0.03)
  })

  it('an unreadable prompt gets a valid grade 0 saying what was missing', () => {
    const verdict = unreadVerdict(['a "Query:" line', 'a "population:" line'])
    expect(verdict.grade).toBe(0)
    expect(verdict.explanation).toBe(
      'Could not grade: the prompt has no a "Query:" line, no a "population:" line. The demo judge grades from the last "Query:" line and the result\'s "name:" and "population:" lines.',
    )
  })
})

describe('answerText', () => {
  it("is JSON or 'Grade: N. …', and the app's parser reads both back; an off-scale answer fails there", () => {
    const verdict = { grade: 2, explanation: 'Named exactly "Paris", 25,171 inhabitants, but another place of that name has 2,138,551.' }
    expect(parseJudgeAnswer(answerText(verdict, true), DEFAULT_SCALE)).toEqual({ ok: true, ...verdict })
    expect(answerText(verdict, false)).toBe(`Grade: 2. ${verdict.explanation}`)
    expect(parseJudgeAnswer(answerText(verdict, false), DEFAULT_SCALE)).toMatchObject({ ok: true, grade: 2 })
    expect(parseJudgeAnswer(answerText({ grade: 7, explanation: 'x' }, true), DEFAULT_SCALE)).toMatchObject({ ok: false })
  })
})

/** The demo judge's grades of the example set's pooled items, each from the prompt the example's judge renders, against "rule: as written". */
function agreementWithTheRule(model: DemoModel = 'demo-judge'): { n: number; same: number; agreement: number; kappaQuadratic: number | null } {
  const set = example.sets!.find((existing) => existing.name === 'World cities (synthetic judgments)')!
  const dataset = loadDataset()
  const largest = largestByName(dataset.cities.map((city) => ({ name: String(city.attributes.name), population: Number(city.attributes.population) || 0 })))
  const texts = new Map(set.queries.map((query) => [query.id, query.text]))
  const confusion = new Array<number>(16).fill(0)
  let n = 0
  for (const judgment of set.judgments.filter((each) => each.rater === 'rule: as written')) {
    const city = dataset.cityIndex.get(judgment.item)!
    const fields = { name: city.attributes.name, country: (city.attributes.country as Ref).target.id, population: city.attributes.population }
    const reading = readPrompt(prompt(texts.get(judgment.query)!, fields))
    if (!reading.ok) throw new Error(`unread: ${reading.missing.join(', ')}`)
    const verdict = demoGrade(reading.facts, largest.get(ruleQuery(reading.facts.query)) ?? 0, model)
    confusion[judgment.grade * 4 + verdict.grade]! += 1
    n++
  }
  const agreement = percentAgreement(confusion, 4).value!
  return { n, same: Math.round(agreement * n), agreement, kappaQuadratic: cohenKappa(confusion, 4, 'quadratic').value }
}

describe("agreement with the example set's raters", () => {
  it('grades most, not all, of the pooled items as "rule: as written" does (the seeded error only)', () => {
    const { n, agreement, kappaQuadratic } = agreementWithTheRule()
    expect(n).toBeGreaterThan(700)
    expect(agreement).toBeGreaterThan(0.84)
    expect(agreement).toBeLessThan(0.92)
    expect(kappaQuadratic).toBeGreaterThan(0.8)
    expect(kappaQuadratic).toBeLessThan(1)
  })
})
