import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadDataset } from '../../src/service/dataset/load'
import { InvertedTextIndex, buildTextIndex } from '../../src/service/dataset/text-index'
import { runChain } from '../../src/service/query/chain'
import { planChain } from '../../src/service/query/chain-plan'
import { createChainCache } from '../../src/service/query/chain-cache'
import { MAX_SEARCH_WORDS } from '../../src/service/query/endpoints/search'
import { WorkBudget } from '../../src/service/query/work-budget'
import { ServiceError } from '../../src/service/refusal'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'
import { openSession, PLACES, type Session } from './service-session'

/**
 * The bounds on one query's work: a search pays once per distinct word and
 * refuses too many of them, and a request that works past its time budget
 * stops with a 503 instead of holding the service's event loop.
 */

/** The search of issue 11: 4 KB, one word repeated. It used to cost 10–16 s of the service's CPU. */
const REPEATED = `${'san '.repeat(999)}zzqx`
const searchPath = (query: string, rest = 'results?count=20') => `${PLACES}/e/search/p/query/${encodeURIComponent(query)}/${rest}`
/** Distinct three-letter words, each a prefix of many names: the costly kind. */
const words = (n: number) => Array.from({ length: n }, (_, i) => `s${'aeiou'[i % 5]}${'nrlmtdkbcgp'[Math.floor(i / 5) % 11]}`)

describe('the search endpoint', () => {
  let s: Session
  beforeAll(async () => {
    s = await openSession()
  })
  afterAll(async () => s.service.close())

  it('answers a 4 KB query of one repeated word as the query without the repeats', async () => {
    expect(REPEATED.length).toBeLessThanOrEqual(4096)
    const repeated = await s.get(searchPath(REPEATED))
    expect(repeated.status).toBe(200)
    // Repeats weigh every score alike, so the relative ranking is that of the words once each.
    expect(repeated.text).toBe((await s.get(searchPath('san zzqx'))).text)
  })

  it('pays for a repeated word once: the index walks each distinct word one time', () => {
    // MiniSearch, the index before, made one pass over the names a word prefixes for each
    // term its tokenizer yielded; 1,000 passes of "san" was the 10–16 s of issue 11. Count the passes, not the time.
    const index = buildTextIndex(loadDataset().cities)
    const pass = vi.spyOn(InvertedTextIndex.prototype, 'scoreWord')
    try {
      index.search(REPEATED)
      expect(pass.mock.calls.map(([word, count]) => [word, count])).toEqual([
        ['san', 999],
        ['zzqx', 1],
      ])
    } finally {
      pass.mockRestore()
    }
  })

  it('still weighs a repeated word as often as it is written', async () => {
    const once = (await s.get(searchPath('san paris', 'results?count=5'))).json()
    const thrice = (await s.get(searchPath('san san san paris', 'results?count=5'))).json()
    const names = (body: { items: { tuple: { attributes: { name: string } }[] }[] }) => body.items.map((item) => item.tuple[0]!.attributes.name)
    expect(names(once)).not.toEqual(names(thrice))
  })

  it(`refuses more than ${MAX_SEARCH_WORDS} distinct words with a 400 that names the parameter and the rule`, async () => {
    expect(new Set(words(MAX_SEARCH_WORDS + 1)).size).toBe(MAX_SEARCH_WORDS + 1)
    expect((await s.get(searchPath(words(MAX_SEARCH_WORDS).join(' ')))).status).toBe(200)
    const refused = await s.get(searchPath(words(MAX_SEARCH_WORDS + 1).join(' ')))
    expect(refused.status).toBe(400)
    expect(refused.json().message).toBe(
      `The parameter "query" of endpoint "search" has ${MAX_SEARCH_WORDS + 1} distinct words; at most ${MAX_SEARCH_WORDS} are allowed (a repeated word counts once)`,
    )
    // Case and accents fold, so these are one word written three ways.
    expect((await s.get(searchPath(`${words(MAX_SEARCH_WORDS).join(' ')} PAR Par Pár`))).status).toBe(400)
    expect((await s.get(searchPath(`${words(MAX_SEARCH_WORDS - 1).join(' ')} PAR Par Pár`))).status).toBe(200)
  })
})

describe('the time budget of a request', () => {
  let tight: Session
  beforeAll(async () => {
    tight = await openSession({ queryBudgetMs: 20 })
  })
  afterAll(async () => tight.service.close())

  it('refuses work past the budget with a 503 that says what happened and what to do', async () => {
    // A sort of every city by name takes several hundred ms.
    const refused = await tight.get(`${PLACES}/e/sort/p/by/name/e/sort/p/by/latitude/results`)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    expect(refused.json().message).toMatch(/^Query over its time budget: answering it needs more than 20 ms of the service's work/)
    expect(refused.json().message).toMatch(/Narrow it .* and try again\.$/)
    // The service goes on: what needs no chain is still answered.
    expect((await tight.get(`${PLACES}/`)).status).toBe(200)
  })

  it('stops a long step from inside (a sort), not only between steps', () => {
    const api = hostedWorkspaces().get('world')!.apis.get('places')!
    const dataset = loadDataset()
    // One tick of this clock per reading: the check before the step passes, and the sort reads it every few thousand comparisons.
    let clock = 0
    const budget = new WorkBudget(50, () => clock++)
    const context = { dataset, text: buildTextIndex([]), config: { name: 'default', ranking: 'text' as const, xml: false }, budget }
    const plan = planChain([{ endpoint: 'sort', parameters: { by: 'name' } }], api)
    let error: unknown
    try {
      runChain(plan, context, createChainCache())
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as ServiceError).status).toBe(503)
    // Only the readings inside the sort could pass the deadline: the one before it read 1.
    expect(clock).toBeGreaterThan(50)
  })
})
