import { MAX_EXPLANATION } from '../../shared/relevance/judge-notes'
import { fold, movedOneStep, ruleGrade, ruleQuery, type RuleReason } from './city-rule'
import { seededRandom, textSeed } from '../../shared/seeded-random'

/**
 * The demo service's stand-in judge (issue 36): no language model, but a
 * program that reads the prompt the app sends (DEFAULT_JUDGE_PROMPT, or any
 * template keeping its lines), finds the query and the city's name and
 * population, and grades by the example set's rule (city-rule.ts) with a
 * fixed-seed error, so that it agrees with the example's raters well but not
 * perfectly and calibration has something to show. Its variants misbehave on
 * purpose, so retries, budgets and failures can be seen offline.
 */

export const DEMO_JUDGE = 'demo-judge'
export const DEMO_JUDGE_BUSY = 'demo-judge-busy'
export const DEMO_JUDGE_FLAKY = 'demo-judge-flaky'
export type DemoModel = typeof DEMO_JUDGE | typeof DEMO_JUDGE_BUSY | typeof DEMO_JUDGE_FLAKY

/** Of the rule's grades, the share the demo judge moves one step (seeded by the query and the city). */
export const DEMO_ERROR_SHARE = 0.12
/** demo-judge-busy answers 429 (Retry-After: 1) to every BUSY_EVERY-th call made to it. */
export const BUSY_EVERY = 4
/** Of the items, the share demo-judge-flaky answers off the scale (seeded by the query and the city). */
export const FLAKY_SHARE = 0.1
export const OFF_SCALE_GRADE = 7

const STAND_IN = "The Query Explorer demo's stand-in judge, not a language model: it reads the query and the city's name and population from the prompt and grades by the example set's rule, moving 12 % of its grades one step (a fixed seed)."

export const DEMO_MODELS: readonly { id: DemoModel; description: string }[] = [
  { id: DEMO_JUDGE, description: STAND_IN },
  { id: DEMO_JUDGE_BUSY, description: `${STAND_IN} This variant answers 429 with Retry-After: 1 to every ${BUSY_EVERY}th call, to show retries and budgets.` },
  { id: DEMO_JUDGE_FLAKY, description: `${STAND_IN} This variant answers grade ${OFF_SCALE_GRADE}, off the scale, for a fixed ${FLAKY_SHARE * 100} % of items, to show failures.` },
]

export function isDemoModel(model: string): model is DemoModel {
  return DEMO_MODELS.some((known) => known.id === model)
}

/** What the demo judge reads from a prompt. */
export interface PromptFacts {
  query: string
  name: string
  population: number
}

export type PromptReading = { ok: true; facts: PromptFacts } | { ok: false; missing: string[] }

const QUERY_LINE = /^\s*query\s*:[ \t]*(.*)$/i
const NAME_LINE = /^\s*name\s*:[ \t]*(.*)$/i
const POPULATION_LINE = /^\s*population\s*:[ \t]*(.*)$/i

/** The first line after `from` matching, else the last one before it (a template may put the item above the query). */
function valueNear(lines: readonly string[], from: number, pattern: RegExp): string | null {
  for (let i = from + 1; i < lines.length; i++) {
    const match = pattern.exec(lines[i]!)
    if (match) return match[1]!.trim()
  }
  for (let i = from - 1; i >= 0; i--) {
    const match = pattern.exec(lines[i]!)
    if (match) return match[1]!.trim()
  }
  return null
}

/** A population as rendered ("2138551", or a person's "2,138,551"); null when it is not a number of inhabitants. */
function populationOf(text: string): number | null {
  const plain = text.replace(/^"|"$/g, '').replace(/[,_\s]/g, '')
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : null
}

/**
 * The query (the LAST "Query:" line: few-shot examples come before it) and
 * the "name:" and "population:" lines of the result after it, as
 * renderJudgePrompt writes an item's fields, a "name: value" a line.
 */
export function readPrompt(text: string): PromptReading {
  const lines = text.split(/\r?\n/)
  let at = -1
  for (let i = lines.length - 1; i >= 0 && at < 0; i--) if (QUERY_LINE.test(lines[i]!)) at = i
  const query = at < 0 ? null : QUERY_LINE.exec(lines[at]!)![1]!.trim()
  const name = valueNear(lines, at, NAME_LINE)
  const populationText = valueNear(lines, at, POPULATION_LINE)
  const population = populationText === null ? null : populationOf(populationText)
  const missing: string[] = []
  if (!query) missing.push('a "Query:" line')
  if (!name) missing.push('a "name:" line')
  if (population === null) missing.push(populationText === null ? 'a "population:" line' : `a number on the "population:" line (it reads "${populationText.slice(0, 40)}")`)
  if (missing.length > 0) return { ok: false, missing }
  return { ok: true, facts: { query: query!, name: name!.replace(/^"|"$/g, ''), population: population! } }
}

export interface DemoVerdict {
  grade: number
  explanation: string
}

const count = (value: number) => Math.round(value).toLocaleString('en-US')
const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`

function reasonText(reason: RuleReason, name: string, q: string, population: number, largest: number): string {
  const inhabitants = `${count(population)} inhabitants`
  switch (reason) {
    case 'exact-million':
      return `Named exactly ${quoted(name)}, ${inhabitants}: a million or more.`
    case 'exact-largest':
      return `Named exactly ${quoted(name)}, ${inhabitants}: the most populous place of that name.`
    case 'exact':
      return `Named exactly ${quoted(name)}, ${inhabitants}, but another place of that name has ${count(largest)}.`
    case 'exact-small':
      return `Named exactly ${quoted(name)}, but only ${inhabitants} (under 10,000).`
    case 'starts-large':
      return `${quoted(name)} starts with ${quoted(q)} and has ${inhabitants} (500,000 or more).`
    case 'starts':
      return `${quoted(name)} starts with ${quoted(q)}, ${inhabitants} (50,000 or more).`
    case 'words':
      return `${quoted(name)} holds ${quoted(q)} as whole words, ${inhabitants} (50,000 or more).`
    case 'small':
      return `${quoted(name)} matches ${quoted(q)} only in part of its name and has only ${inhabitants} (under 50,000).`
    case 'unrelated':
      return `${quoted(name)} is not named ${quoted(q)}, nor starts with it or holds it as words.`
  }
}

/**
 * The demo judge's grade for what it read, `largest` being the population of
 * the dataset's most populous place named as the query (largestByName of the
 * folded ruleQuery). The explanation says which clause of the rule applied,
 * and says so when the seeded error moved the grade, so calibration shows why
 * the two differ.
 */
export function demoGrade(facts: PromptFacts, largest: number, model: DemoModel): DemoVerdict {
  const q = ruleQuery(facts.query)
  const seedText = `${fold(facts.query)}\u0000${fold(facts.name)}\u0000${facts.population}`
  if (model === DEMO_JUDGE_FLAKY && seededRandom(textSeed(`flaky\u0000${seedText}`))() < FLAKY_SHARE) {
    return { grade: OFF_SCALE_GRADE, explanation: `Off the scale on purpose: demo-judge-flaky answers ${OFF_SCALE_GRADE} for a fixed ${FLAKY_SHARE * 100} % of items, to show how a bad answer fails.` }
  }
  const rule = ruleGrade({ name: facts.name, population: facts.population }, q, largest)
  const grade = movedOneStep(rule.grade, `${DEMO_JUDGE}\u0000${seedText}`, DEMO_ERROR_SHARE)
  const meant = q !== fold(facts.query) ? `Read ${quoted(facts.query)} as ${quoted(q)}. ` : ''
  const moved = grade !== rule.grade ? ` The demo judge's seeded error moved the rule's grade ${rule.grade} to ${grade}.` : ''
  return { grade, explanation: `${meant}${reasonText(rule.reason, facts.name, q, facts.population, largest)}${moved}`.slice(0, MAX_EXPLANATION) }
}

/** The answer to a prompt it cannot read: a valid grade 0 that says what was missing. */
export function unreadVerdict(missing: readonly string[]): DemoVerdict {
  return {
    grade: 0,
    explanation: `Could not grade: the prompt has no ${missing.join(', no ')}. The demo judge grades from the last "Query:" line and the result's "name:" and "population:" lines.`.slice(0, MAX_EXPLANATION),
  }
}

/** The answer's text: JSON when a JSON answer was asked for, else "Grade: N. <explanation>". */
export function answerText(verdict: DemoVerdict, json: boolean): string {
  return json ? JSON.stringify({ grade: verdict.grade, explanation: verdict.explanation }) : `Grade: ${verdict.grade}. ${verdict.explanation}`
}
