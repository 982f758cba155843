import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiDescriptionSchema } from '../../src/shared/api-description'
import { OPTION_ORDER, RESPONSE_TYPES, type ResponseType } from '../../src/shared/query/model'
import { OPTIONS_BY_TYPE } from '../../src/shared/query/response-types'
import {
  CountResponseSchema,
  OptionsResponseSchema,
  ResultPageResponseSchema,
  ResultsAndCountResponseSchema,
  ResultsResponseSchema,
  StatisticsResponseSchema,
} from '../../src/shared/responses'
import { PLACES, PUBLIC, openSession, type Session } from './service-session'

/**
 * The embedded service's answers for every response type the official client
 * libraries request (their `RequestType` and the response types their
 * declarations map each to), bare facet values, and the API description
 * route as those libraries probe it. Over real HTTP on 127.0.0.1.
 */

let s: Session
beforeAll(async () => {
  s = await openSession()
})
afterAll(() => s.service.close())

const SEARCH = `${PLACES}/e/search/p/query/san`

async function ok(path: string, token?: string | null) {
  const answer = await s.get(path, token)
  expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200)
  return answer
}

async function refused(path: string, status: number, message: string | RegExp, token?: string | null) {
  const answer = await s.get(path, token)
  expect(answer.status, answer.text).toBe(status)
  if (typeof message === 'string') expect(answer.json().message).toBe(message)
  else expect(answer.json().message).toMatch(message)
  return answer
}

/** The client libraries' `ResultObject`: names to strings, numbers or such objects. */
function isResultObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.values(value).every((inner) => typeof inner === 'string' || typeof inner === 'number' || isResultObject(inner))
}

describe('count', () => {
  it('answers {"total": N}, the statistics total, with the cutoff applied', async () => {
    const count = CountResponseSchema.parse((await ok(`${SEARCH}/count`)).json())
    expect(Object.keys(count)).toEqual(['total'])
    expect(count.total).toBe(StatisticsResponseSchema.parse((await ok(`${SEARCH}/statistics`)).json()).total)
    const high = (await ok(`${SEARCH}/count?cutoff=0.9`)).json().total
    expect(high).toBeGreaterThan(0)
    expect(high).toBeLessThan(count.total)
  })
})

describe('results,count', () => {
  it('answers the JSON array [<results>, <statistics>], each the same as asked alone', async () => {
    const both = (await ok(`${SEARCH}/results,count?count=5&offset=5&level=0`)).json()
    ResultsAndCountResponseSchema.parse(both)
    expect(both).toHaveLength(2)
    expect(both[0]).toEqual((await ok(`${SEARCH}/results?count=5&offset=5&level=0`)).json())
    expect(both[1]).toEqual((await ok(`${SEARCH}/statistics`)).json())
  })

  it('is written with the comma literal or encoded; a format other than json is a 406', async () => {
    const encoded = await ok(`${SEARCH}/results%2Ccount`)
    expect(encoded.bytes.equals((await ok(`${SEARCH}/results,count`)).bytes)).toBe(true)
    await refused(`${SEARCH}/results,count?format=csv`, 406, /^format csv is not available for results,count/)
  })
})

describe('resultpage', () => {
  it('answers a results page whose tuples hold result objects (the entity view)', async () => {
    const page = ResultPageResponseSchema.parse((await ok(`${SEARCH}/resultpage?count=5&offset=2`)).json())
    const results = ResultsResponseSchema.parse((await ok(`${SEARCH}/results?count=5&offset=2`)).json())
    expect(page).toMatchObject({ offset: 2, count: 5, type: ['OBJ'] })
    expect(page.items.map((item) => item.rank)).toEqual([3, 4, 5, 6, 7])
    expect(page.items.map((item) => item.probability)).toEqual(results.items.map((item) => item.probability))
    for (const [index, item] of page.items.entries()) {
      const tuple = item.tuple as Record<string, unknown>[]
      expect(tuple).toHaveLength(1)
      expect(isResultObject(tuple[0]), JSON.stringify(tuple[0])).toBe(true)
      const described = (results.items[index]!.tuple as { id: string; attributes: Record<string, unknown> }[])[0]!
      expect(tuple[0]).toMatchObject({ id: described.id, class: 'city', name: described.attributes.name, population: described.attributes.population })
      // A reference is the object it refers to, with its name.
      expect(tuple[0]!.country).toEqual({ id: described.attributes.country, class: 'country', name: expect.any(String) })
    }
  })

  it('holds each column of a [STRING,STRING,STRING] tuple as {"value": …}', async () => {
    const page = (await ok(`${PLACES}/e/city/p/id/2988507/e/triples/resultpage?count=2`)).json()
    expect(page.type).toEqual(['STRING', 'STRING', 'STRING'])
    for (const item of page.items) {
      expect(item.tuple).toHaveLength(3)
      for (const cell of item.tuple) expect(Object.keys(cell)).toEqual(['value'])
    }
  })
})

describe('resultitem', () => {
  it('answers one result object: rank 1 and column 1 by default, else the rank and column asked', async () => {
    const page = (await ok(`${SEARCH}/resultpage?count=3`)).json()
    const first = (await ok(`${SEARCH}/resultitem`)).json()
    expect(isResultObject(first)).toBe(true)
    expect(first).toEqual(page.items[0].tuple[0])
    expect((await ok(`${SEARCH}/resultitem?rank=3&column=1`)).json()).toEqual(page.items[2].tuple[0])
    const triples = `${PLACES}/e/city/p/id/2988507/e/triples`
    const statements = (await ok(`${triples}/resultpage?count=2`)).json()
    expect((await ok(`${triples}/resultitem?rank=2&column=2`)).json()).toEqual(statements.items[1].tuple[1])
  })

  it('404 past the last result, 400 past the last column, 400 for a rank or column below 1', async () => {
    const { total } = (await ok(`${PLACES}/e/search/p/query/paris/count`)).json()
    await refused(`${PLACES}/e/search/p/query/paris/resultitem?rank=${total + 1}`, 404, `No result at rank ${total + 1}: the request has ${total} results`)
    await refused(`${SEARCH}/resultitem?column=2`, 400, 'Option column 2 is past the last column of the results (they have 1)')
    await refused(`${SEARCH}/resultitem?rank=0`, 400, 'Option rank must be a whole number 1 or more, not 0')
    await refused(`${SEARCH}/resultitem?column=1.5`, 400, 'Option column must be a whole number 1 or more, not 1.5')
  })
})

describe('options/<facet>', () => {
  it('answers {id, title, selected, options} for the chain before it; scores count the results with each option', async () => {
    const answer = OptionsResponseSchema.parse((await ok(`${SEARCH}/options/continent`)).json())
    expect(answer).toMatchObject({ id: 'continent', title: 'Continent', selected: [] })
    const { total } = (await ok(`${SEARCH}/count`)).json()
    expect(answer.options.reduce((sum, option) => sum + option.score, 0)).toBe(total)
    const scores = answer.options.map((option) => option.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    const europe = answer.options.find((option) => option.id === 'Europe')
    expect(europe).toEqual({ id: 'Europe', score: expect.any(Number), value: 'Europe', title: 'Europe' })
    // The score is the number of results the option's filter keeps.
    expect((await ok(`${SEARCH}/e/continent:FILTER/p/value/${europe!.value}/count`)).json().total).toBe(europe!.score)
  })

  it('counts over the chain before it, other facets\' filters included', async () => {
    const filtered = OptionsResponseSchema.parse((await ok(`${SEARCH}/e/continent:FILTER/p/value/Europe/options/country`)).json())
    const continentOf = new Map<string, string>()
    for (let offset = 0; offset < 300; offset += 100) {
      const page = (await ok(`${PLACES}/e/countries/resultpage?count=100&offset=${offset}`)).json()
      for (const item of page.items) continentOf.set(item.tuple[0].id, item.tuple[0].continent.id)
    }
    expect(continentOf.size).toBeGreaterThan(200)
    expect(filtered.options.length).toBeGreaterThan(5)
    for (const option of filtered.options) expect(continentOf.get(option.id)).toBe('Europe')
    expect(filtered.options.find((option) => option.id === 'ES')).toMatchObject({ title: 'Spain', value: 'ES' })
  })

  it("lists its own filter's options as selected; multiselect=true counts the others as if nothing were selected", async () => {
    const all = OptionsResponseSchema.parse((await ok(`${SEARCH}/options/country`)).json())
    const spain = all.options.find((option) => option.id === 'ES')!
    const single = OptionsResponseSchema.parse((await ok(`${SEARCH}/e/country:FILTER/p/value/ES/options/country`)).json())
    expect(single.selected).toEqual([spain])
    expect(single.options).toEqual([spain])
    const multi = OptionsResponseSchema.parse((await ok(`${SEARCH}/e/country:FILTER/p/value/ES/options/country?multiselect=true`)).json())
    expect(multi.selected).toEqual([spain])
    expect(multi.options).toEqual(all.options)
    const two = OptionsResponseSchema.parse((await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("ES")|1("MX")')}/options/country?multiselect=true`)).json())
    expect(two.selected.map((option) => option.id)).toEqual(['ES', 'MX'])
  })

  it('lists every option unless count asks for a page; offset skips', async () => {
    const all = (await ok(`${PLACES}/options/country`)).json().options
    expect(all.length).toBeGreaterThan(200)
    expect((await ok(`${PLACES}/options/country?count=5&offset=3`)).json().options).toEqual(all.slice(3, 8))
    expect((await ok(`${PLACES}/options/country?offset=240`)).json().options).toEqual(all.slice(240))
  })

  it('400 "no endpoint" for an unknown facet, 400 for an endpoint that is not a facet options endpoint', async () => {
    await refused(`${SEARCH}/options/genre`, 400, /^no endpoint named "genre" in api "places"/)
    await refused(`${SEARCH}/options/search`, 400, 'The endpoint "search" is a search endpoint, not a facet options endpoint, so it has no options to list')
    await refused(`${SEARCH}/options`, 400, /options\/<facet>/)
  })
})

describe('options by response type', () => {
  const VALUES: Record<string, string> = {
    config: 'default',
    count: '5',
    offset: '0',
    format: 'json',
    level: '1',
    homogeneousArrays: 'false',
    cutoff: '0.1',
    rank: '1',
    column: '1',
    multiselect: 'true',
  }
  const path = (type: ResponseType) => (type === 'options' ? `${SEARCH}/options/country` : `${SEARCH}/${type}`)

  it('takes each option a type applies to, and refuses any other with a 400 naming option and type', async () => {
    for (const type of RESPONSE_TYPES) {
      for (const name of OPTION_ORDER) {
        const url = `${path(type)}?${name}=${VALUES[name]}`
        const answer = await s.get(url)
        if (OPTIONS_BY_TYPE[type].includes(name)) expect(answer.status, `${url}: ${answer.text.slice(0, 200)}`).toBe(200)
        else {
          expect(answer.status, url).toBe(400)
          expect(answer.json().message).toMatch(new RegExp(`^Option ${name} applies to .+, not to ${type}$`))
        }
      }
    }
  })
})

describe('bare facet values', () => {
  it('a :FILTER value that is a bare option id is that option, with probability 1', async () => {
    const quoted = (await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("ES")')}/results?count=20`)).bytes
    expect((await ok(`${SEARCH}/e/country:FILTER/p/value/ES/results?count=20`)).bytes.equals(quoted)).toBe(true)
    expect((await ok(`${SEARCH}/e/continent:FILTER/p/value/Europe/count`)).json()).toEqual((await ok(`${SEARCH}/e/continent:FILTER/p/value/1(Europe)/count`)).json())
  })

  it('an id that is no option keeps nothing; a value with parentheses that is not tuple notation is a 400', async () => {
    expect((await ok(`${SEARCH}/e/country:FILTER/p/value/Atlantis/count`)).json()).toEqual({ total: 0 })
    await refused(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("ES"')}/count`, 400, /neither an option id nor tuple notation/)
  })
})

describe('the API description route, as the client libraries probe it', () => {
  it('a protected API answers 401 without a valid token (the libraries take a 200 to mean public)', async () => {
    for (const path of [`${PLACES}/`, PLACES, `/4${PLACES}?config=default`]) {
      for (const token of [null, 'not-a-token']) {
        const answer = await refused(path, 401, /^Invalid or expired token/, token)
        expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
      }
    }
    ApiDescriptionSchema.parse((await ok(`/4${PLACES}?config=default`)).json())
  })

  it('a public API answers without a token', async () => {
    expect(ApiDescriptionSchema.parse((await ok(`${PUBLIC}/`, null)).json()).public).toBe(true)
  })

  it('honours config: unknown is 404 No such workspace configuration; only config applies', async () => {
    await refused(`${PLACES}/?config=staging`, 404, 'No such workspace configuration: world/staging')
    await refused(`${PUBLIC}?config=production`, 404, 'No such workspace configuration: world/production', null)
    expect((await ok(`${PLACES}/?config=production`)).json().configs).toContain('production')
    await refused(`${PLACES}/?count=5`, 400, 'Option count does not apply to the API description; only config does')
  })
})
