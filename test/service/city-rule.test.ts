import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadDataset } from '../../src/service/dataset/load'
import { fold, gradeOf, largestByName, movedOneStep, ruleGrade, ruleQuery } from '../../src/service/judge/city-rule'
import { parseWorkspace } from '../../src/shared/workspace/workspace-file'

/**
 * THE RULE of the example set, as scripts/make-example-set.ts and the demo
 * judge both read it: each clause at its bounds, the names compared folded,
 * the most populous place of a name, the seeded one-step move; and the
 * example file's "rule: as written" grades are this module's grades, so the
 * script and the judge cannot drift apart.
 */

describe('fold', () => {
  it('compares without case, accents or punctuation', () => {
    expect(fold('Washington, D.C.')).toBe('washington d c')
    expect(fold('  São Paulo ')).toBe('sao paulo')
    expect(fold("Val-d'Or")).toBe('val d or')
  })
})

describe('ruleQuery', () => {
  it("reads the example set's misspelled queries as the spelling they mean, others folded", () => {
    expect(ruleQuery('Sao Paolo')).toBe('sao paulo')
    expect(ruleQuery('kuala lumpor')).toBe('kuala lumpur')
    expect(ruleQuery('Zürich')).toBe('zurich')
  })
})

describe('gradeOf, the rule as written', () => {
  const city = (name: string, population: number) => ({ name, population })
  it('3 for the exact name with a million or more, or the most populous of that name with 10,000 or more', () => {
    expect(ruleGrade(city('Paris', 1_000_000), 'paris', 5_000_000)).toEqual({ grade: 3, reason: 'exact-million' })
    expect(ruleGrade(city('Lisbon', 517_802), 'lisbon', 517_802)).toEqual({ grade: 3, reason: 'exact-largest' })
    expect(ruleGrade(city('New York City', 8_000_000), 'new york', 8_000_000).grade).toBe(3)
    // The most populous of its name, but under 10,000.
    expect(ruleGrade(city('Tinyville', 9_999), 'tinyville', 9_999)).toEqual({ grade: 1, reason: 'exact-small' })
  })

  it('2 for the exact name with 10,000 or more (not the largest), or a name it starts with at 500,000 or more', () => {
    expect(ruleGrade(city('Paris', 25_171), 'paris', 2_138_551)).toEqual({ grade: 2, reason: 'exact' })
    expect(ruleGrade(city('San Diego', 500_000), 'san', 0)).toEqual({ grade: 2, reason: 'starts-large' })
  })

  it('1 for a name it starts with or holds as words at 50,000 or more; 0 under it or unrelated', () => {
    expect(ruleGrade(city('Santa Ana', 499_999), 'san', 0)).toEqual({ grade: 1, reason: 'starts' })
    expect(ruleGrade(city('Puerto San José', 50_000), 'san jose', 0)).toEqual({ grade: 1, reason: 'words' })
    expect(ruleGrade(city('Puerto San José', 49_999), 'san jose', 0)).toEqual({ grade: 0, reason: 'small' })
    // "jose" is in the name but not as the query's whole words.
    expect(ruleGrade(city('Josefov', 2_000_000), 'san jose', 0)).toEqual({ grade: 0, reason: 'unrelated' })
  })

  it('reads every number of inhabitants times the factor (the strict and lenient raters)', () => {
    expect(gradeOf(city('Paris', 1_500_000), 'paris', 2_138_551, 2)).toBe(2)
    expect(gradeOf(city('Santa Ana', 30_000), 'san', 0, 0.5)).toBe(1)
  })
})

describe('largestByName', () => {
  it('keeps the most populous of each folded name, "X City" counting as "X" too', () => {
    const largest = largestByName([
      { name: 'Paris', population: 25_171 },
      { name: 'PARIS', population: 2_138_551 },
      { name: 'Mexico City', population: 12_294_193 },
      { name: 'Mexico', population: 900 },
    ])
    expect(largest.get('paris')).toBe(2_138_551)
    expect(largest.get('mexico')).toBe(12_294_193)
    expect(largest.get('mexico city')).toBe(12_294_193)
    expect(largest.get('lyon')).toBeUndefined()
  })
})

describe('movedOneStep', () => {
  it('moves about its share of grades, always one step, inward at 0 and 3, the same way each time for a seed', () => {
    let moved = 0
    for (let i = 0; i < 4_000; i++) {
      const grade = i % 4
      const result = movedOneStep(grade, `seed ${i}`, 0.12)
      expect(result).toBe(movedOneStep(grade, `seed ${i}`, 0.12))
      if (result !== grade) {
        moved++
        expect(Math.abs(result - grade)).toBe(1)
        expect(result).toBeGreaterThanOrEqual(0)
        expect(result).toBeLessThanOrEqual(3)
      }
    }
    expect(moved / 4_000).toBeGreaterThan(0.1)
    expect(moved / 4_000).toBeLessThan(0.14)
    expect(movedOneStep(2, 'any', 0)).toBe(2)
  })
})

describe("the example set's grades", () => {
  it('"rule: as written" graded every pooled city of examples/world.qxw.json as gradeOf grades it', () => {
    const read = parseWorkspace(readFileSync(join(__dirname, '../../examples/world.qxw.json'), 'utf8'), 'world.qxw.json')
    if (!read.ok) throw new Error(read.message)
    const set = read.workspace.sets!.find((existing) => existing.name === 'World cities (synthetic judgments)')!
    const dataset = loadDataset()
    const cities = dataset.cities.map((city) => ({ name: String(city.attributes.name), population: Number(city.attributes.population) || 0 }))
    const largest = largestByName(cities)
    const texts = new Map(set.queries.map((query) => [query.id, query.text]))
    const written = set.judgments.filter((judgment) => judgment.rater === 'rule: as written')
    expect(written.length).toBeGreaterThan(700)
    for (const judgment of written) {
      const city = dataset.cityIndex.get(judgment.item)!
      const q = ruleQuery(texts.get(judgment.query)!)
      const grade = gradeOf({ name: String(city.attributes.name), population: Number(city.attributes.population) }, q, largest.get(q) ?? 0)
      expect(grade, `${judgment.query} ${judgment.item}`).toBe(judgment.grade)
    }
  })
})
