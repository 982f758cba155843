import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiDescriptionSchema } from '../../src/shared/api-description'
import { ResultsResponseSchema, StatisticsResponseSchema } from '../../src/shared/responses'
import { PLACES, PUBLIC, openSession, type Session } from './service-session'

/**
 * Conformance of the embedded service to the seed and SERVICE-CONTRACT.md,
 * over real HTTP on 127.0.0.1: one test per table row and per seed rule.
 */

let s: Session
beforeAll(async () => {
  s = await openSession()
})
afterAll(() => s.service.close())

const SEARCH = `${PLACES}/e/search/p/query/san`
const ids = (body: any): string[] => body.items.map((item: any) => item.tuple[0].id)

async function ok(path: string) {
  const answer = await s.get(path)
  expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200)
  return answer
}

async function refused(path: string, status: number, start: string | RegExp, token?: string | null) {
  const answer = await s.get(path, token)
  expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
  const { message } = answer.json()
  if (typeof start === 'string') expect(message.startsWith(start), message).toBe(true)
  else expect(message).toMatch(start)
  return answer
}

describe('URLs', () => {
  it('accepts a numeric version segment or none, with the same answer', async () => {
    const plain = await ok(`${SEARCH}/results`)
    const versioned = await ok(`/4${SEARCH}/results`)
    const dotted = await ok(`/4.1${SEARCH}/results`)
    expect(versioned.bytes.equals(plain.bytes)).toBe(true)
    expect(dotted.bytes.equals(plain.bytes)).toBe(true)
  })

  it('decodes each value as one percent-encoded segment (spaces, unicode, slash)', async () => {
    const spaced = (await ok(`${PLACES}/e/search/p/query/${encodeURIComponent('new york')}/results?count=20`)).json()
    expect(spaced.items.some((item: any) => item.tuple[0].attributes.name === 'New York City')).toBe(true)
    const unicode = (await ok(`${PLACES}/e/search/p/query/${encodeURIComponent('São Paulo')}/results`)).json()
    expect(unicode.items[0].tuple[0].attributes.name).toBe('São Paulo')
    const folded = (await ok(`${PLACES}/e/search/p/query/sao%20paulo/results`)).json()
    expect(folded.items[0].tuple[0].attributes.name).toBe('São Paulo')
    await ok(`${PLACES}/e/search/p/query/${encodeURIComponent('a/b "c" 100%')}/results`)
  })

  it('reads the :FILTER suffix written literally or percent-encoded', async () => {
    const literal = await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("US")')}/results`)
    const encoded = await ok(`${SEARCH}/e/country%3AFILTER/p/value/${encodeURIComponent('1("US")')}/results`)
    expect(encoded.bytes.equals(literal.bytes)).toBe(true)
  })

  it('applies a context parameter to every later endpoint defining it, even before the first endpoint', async () => {
    const explicit = await ok(`${PLACES}/e/search/p/query/paris/results`)
    const context = await ok(`${PLACES}/c/query/paris/e/search/results`)
    expect(context.bytes.equals(explicit.bytes)).toBe(true)
    const late = await ok(`${SEARCH}/c/min/100000/e/population/results?count=50`)
    const direct = await ok(`${SEARCH}/e/population/p/min/100000/results?count=50`)
    expect(late.bytes.equals(direct.bytes)).toBe(true)
    // Defined by population only, so search ignores it and population still takes it.
    const early = await ok(`${PLACES}/c/min/100000/e/search/p/query/san/e/population/results?count=50`)
    expect(early.bytes.equals(direct.bytes)).toBe(true)
  })

  it('lets an explicit /p/ win over a context parameter', async () => {
    const explicit = await ok(`${PLACES}/e/search/p/query/paris/results`)
    const both = await ok(`${PLACES}/c/query/london/e/search/p/query/paris/results`)
    expect(both.bytes.equals(explicit.bytes)).toBe(true)
  })

  it('treats the order of parameters as irrelevant (seed rule 1)', async () => {
    const a = await ok(`${SEARCH}/e/population/p/min/1000/p/max/50000/results`)
    const b = await ok(`${SEARCH}/e/population/p/max/50000/p/min/1000/results`)
    expect(b.bytes.equals(a.bytes)).toBe(true)
  })

  it('answers 400 for one parameter given twice with different values (seed rule 2)', async () => {
    await refused(`${SEARCH}/e/population/p/min/1/p/min/2/results`, 400, /min.*twice/)
  })

  it('answers results, statistics and count; no response type means results', async () => {
    const results = ResultsResponseSchema.parse((await ok(`${SEARCH}/results`)).json())
    expect(results.items).toHaveLength(10)
    const bare = await ok(SEARCH)
    expect(bare.bytes.equals((await ok(`${SEARCH}/results`)).bytes)).toBe(true)
    const statistics = StatisticsResponseSchema.parse((await ok(`${SEARCH}/statistics`)).json())
    expect(statistics.total).toBeGreaterThan(1000)
    expect((await ok(`${SEARCH}/count`)).json()).toEqual({ total: statistics.total })
  })

  it('describes an API at its trailing-slash route, telling whether it is public', async () => {
    const places = ApiDescriptionSchema.parse((await ok(`${PLACES}/`)).json())
    expect(places).toMatchObject({ workspace: 'world', api: 'places', public: false, configs: ['default', 'production'] })
    const kinds = new Set(places.endpoints.map((endpoint) => endpoint.kind))
    for (const kind of ['search', 'filter', 'modifier', 'facet-options', 'facet-filter', 'item', 'list']) expect(kinds).toContain(kind)
    const triples = places.endpoints.find((endpoint) => endpoint.output.join() === 'STRING,STRING,STRING')
    expect(triples?.name).toBe('triples')
    const open = ApiDescriptionSchema.parse((await s.get(`${PUBLIC}/`, null)).json())
    expect(open.public).toBe(true)
  })
})

describe('options', () => {
  it('config: default is "default"; production ranks visibly differently', async () => {
    const implicit = await ok(`${PLACES}/e/search/p/query/springfield/results`)
    const explicit = await ok(`${PLACES}/e/search/p/query/springfield/results?config=default`)
    expect(explicit.bytes.equals(implicit.bytes)).toBe(true)
    const production = await ok(`${PLACES}/e/search/p/query/springfield/results?config=production`)
    expect(ids(production.json())).not.toEqual(ids(implicit.json()))
    // Production boosts by population: its top hit is the most populous Springfield.
    const top = production.json().items[0].tuple[0].attributes
    const all = (await ok(`${PLACES}/e/search/p/query/springfield/results?count=100`)).json()
    const largest = Math.max(...all.items.map((item: any) => item.tuple[0].attributes.population))
    expect(top.population).toBe(largest)
  })

  it('config: unknown is 404 No such workspace configuration', async () => {
    await refused(`${SEARCH}/results?config=staging`, 404, 'No such workspace configuration: world/staging')
  })

  it('count: default 10, bounds 1 to 100, otherwise 400', async () => {
    expect((await ok(`${SEARCH}/results`)).json()).toMatchObject({ count: 10 })
    expect((await ok(`${SEARCH}/results?count=1`)).json().items).toHaveLength(1)
    expect((await ok(`${SEARCH}/results?count=100`)).json().items).toHaveLength(100)
    for (const bad of ['0', '101', '1.5', '-3', 'ten']) await refused(`${SEARCH}/results?count=${bad}`, 400, /count/)
  })

  it('offset: default 0, 0 or more, otherwise 400; past the end gives no items', async () => {
    expect((await ok(`${SEARCH}/results`)).json().offset).toBe(0)
    const second = (await ok(`${SEARCH}/results?offset=10`)).json()
    const first20 = (await ok(`${SEARCH}/results?count=20`)).json()
    expect(ids(second)).toEqual(ids(first20).slice(10))
    expect((await ok(`${SEARCH}/results?offset=1000000`)).json().items).toEqual([])
    for (const bad of ['-1', '2.5']) await refused(`${SEARCH}/results?offset=${bad}`, 400, /offset/)
  })

  it('format: default json; unknown 400', async () => {
    const json = await ok(`${SEARCH}/results`)
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect((await ok(`${SEARCH}/results?format=json`)).bytes.equals(json.bytes)).toBe(true)
    await refused(`${SEARCH}/results?format=yaml`, 400, /format "yaml" is unknown/)
  })

  it('format: xml only where the configuration enables it (406 otherwise)', async () => {
    await refused(`${SEARCH}/results?format=xml`, 406, 'format xml is not enabled for this configuration')
    const xml = await ok(`${SEARCH}/results?format=xml&config=production&count=2`)
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<results offset="0" count="2">/)
    expect(xml.text.match(/<item rank="\d+" probability="[\d.]+">/g)).toHaveLength(2)
    expect(xml.text).toContain('<attribute name="name">')
  })

  it('format: rdf only for [STRING,STRING,STRING] output, as N-Triples (406 otherwise)', async () => {
    await refused(`${SEARCH}/results?format=rdf`, 406, /^format rdf .*\[OBJ\]/)
    const rdf = await ok(`${PLACES}/e/city/p/id/2988507/e/triples/results?format=rdf&count=100`)
    expect(rdf.headers.get('content-type')).toBe('application/n-triples; charset=utf-8')
    const lines = rdf.text.trimEnd().split('\n')
    for (const line of lines) expect(line).toMatch(/^<[^>]+> <[^>]+> (<[^>]+>|"(?:[^"\\]|\\.)*") \.$/)
    expect(lines).toContain('<https://world.example.org/city/2988507> <https://world.example.org/vocab#name> "Paris" .')
    expect(lines).toContain('<https://world.example.org/city/2988507> <https://world.example.org/vocab#country> <https://world.example.org/country/FR> .')
  })

  it('format: csv is RFC 4180 with rank, probability and n.id, n.class, n.<attribute> columns', async () => {
    const csv = await ok(`${SEARCH}/results?format=csv&count=3`)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const lines = csv.text.split('\r\n')
    expect(lines[0]).toBe('rank,probability,1.id,1.class,1.name,1.country,1.population,1.kind,1.latitude,1.longitude')
    expect(lines).toHaveLength(5)
    expect(lines[4]).toBe('')
    const json = (await ok(`${SEARCH}/results?count=3`)).json()
    expect(lines[1]!.startsWith(`1,${json.items[0].probability},${json.items[0].tuple[0].id},city,`)).toBe(true)
    const quoted = await ok(`${PLACES}/e/countries/results?format=csv&count=100`)
    expect(quoted.text).toMatch(/"[^"\r\n]*,[^"\r\n]*"/)
    const triples = await ok(`${PLACES}/e/city/p/id/2988507/e/triples/results?format=csv`)
    expect(triples.text.split('\r\n')[0]).toBe('rank,probability,1,2,3')
  })

  it('format: xlsx is a real workbook with one sheet "results" holding the csv rows', async () => {
    const xlsx = await ok(`${SEARCH}/results?format=xlsx&count=5`)
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer)
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['results'])
    const sheet = workbook.getWorksheet('results')!
    expect(sheet.rowCount).toBe(6)
    const csv = (await ok(`${SEARCH}/results?format=csv&count=5`)).text.split('\r\n')
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header.join(',')).toBe(csv[0])
    expect(sheet.getRow(2).getCell(3).value).toBe(csv[1]!.split(',')[2])
  })

  it('level: default 1 with references as ids; 0 gives id and class; 2 and more expand references', async () => {
    const one = (await ok(`${PLACES}/e/city/p/id/2988507/results`)).json().items[0].tuple[0]
    expect(one).toEqual({
      id: '2988507',
      class: ['city'],
      attributes: { name: 'Paris', country: 'FR', population: 2138551, kind: 'capital', latitude: 48.85341, longitude: 2.3488 },
    })
    const zero = (await ok(`${PLACES}/e/city/p/id/2988507/results?level=0`)).json().items[0].tuple[0]
    expect(zero).toEqual({ id: '2988507', class: ['city'] })
    const two = (await ok(`${PLACES}/e/city/p/id/2988507/results?level=2`)).json().items[0].tuple[0]
    expect(two.attributes.country).toMatchObject({ id: 'FR', class: ['country'], attributes: { name: 'France', continent: 'Europe' } })
    const three = (await ok(`${PLACES}/e/city/p/id/2988507/results?level=3`)).json().items[0].tuple[0]
    expect(three.attributes.country.attributes.continent).toMatchObject({ id: 'Europe', class: ['continent'] })
    for (const bad of ['-1', '1.5']) await refused(`${SEARCH}/results?level=${bad}`, 400, /level/)
  })

  it('homogeneousArrays: default false (array); true keys tuple columns by 1-based number; else 400', async () => {
    const plain = (await ok(`${SEARCH}/results?count=2`)).json()
    expect(Array.isArray(plain.items[0].tuple)).toBe(true)
    const keyed = (await ok(`${SEARCH}/results?count=2&homogeneousArrays=true`)).json()
    expect(keyed.items[0].tuple).toEqual({ '1': plain.items[0].tuple[0] })
    const triple = (await ok(`${PLACES}/e/city/p/id/2988507/e/triples/results?homogeneousArrays=true&count=1`)).json()
    expect(Object.keys(triple.items[0].tuple)).toEqual(['1', '2', '3'])
    await refused(`${SEARCH}/results?homogeneousArrays=yes`, 400, /homogeneousArrays/)
  })

  it('cutoff: only results with probability at least the cutoff count, in results, statistics and count; else 400', async () => {
    const all = (await ok(`${SEARCH}/statistics`)).json()
    const half = all.stats.find((entry: any) => entry.cutoff === '0.5').numResults
    expect((await ok(`${SEARCH}/count?cutoff=0.5`)).json().total).toBe(half)
    expect((await ok(`${SEARCH}/statistics?cutoff=0.5`)).json().total).toBe(half)
    const page = (await ok(`${SEARCH}/results?cutoff=0.5&count=100&offset=${Math.max(0, half - 5)}`)).json()
    expect(page.items.length).toBe(Math.min(5, half))
    for (const item of page.items) expect(item.probability).toBeGreaterThanOrEqual(0.5)
    for (const bad of ['1.5', '-0.1', 'high']) await refused(`${SEARCH}/results?cutoff=${bad}`, 400, /cutoff/)
  })

  it('an option it does not know is ignored, as real deployments do (dev_version, as the Python client README sends it)', async () => {
    const plain = (await ok(`${SEARCH}/results?config=default&count=5`)).text
    expect((await ok(`${SEARCH}/results?config=default&count=5&dev_version=master`)).text).toBe(plain)
    expect((await ok(`${SEARCH}/results?config=default&count=5&limit=1`)).text).toBe(plain)
  })
})

describe('responses', () => {
  it('sorts items by probability, highest first, ties by id ascending', async () => {
    const body = (await ok(`${SEARCH}/results?count=100`)).json()
    for (let i = 1; i < body.items.length; i++) {
      const [a, b] = [body.items[i - 1], body.items[i]]
      expect(a.probability > b.probability || (a.probability === b.probability && a.tuple[0].id < b.tuple[0].id)).toBe(true)
    }
  })

  it('gives identical bytes for the same request, in every format', async () => {
    for (const query of ['', '?format=csv', '?format=xlsx', '?format=xml&config=production']) {
      const a = await ok(`${SEARCH}/e/continent:FILTER/p/value/1(%22Americas%22)/results${query}`)
      const b = await ok(`${SEARCH}/e/continent:FILTER/p/value/1(%22Americas%22)/results${query}`)
      expect(b.bytes.equals(a.bytes), query).toBe(true)
    }
  })

  it('pages add up to total, with rank continuing across pages and count echoing the request', async () => {
    const chain = `${PLACES}/e/search/p/query/new%20york`
    const { total } = (await ok(`${chain}/count`)).json()
    expect(total).toBeGreaterThan(100)
    let seen = 0
    const ranks: number[] = []
    for (let offset = 0; offset < total; offset += 10) {
      const page = (await ok(`${chain}/results?count=10&offset=${offset}`)).json()
      expect(page.count).toBe(10)
      seen += page.items.length
      ranks.push(...page.items.map((item: any) => item.rank))
    }
    expect(seen).toBe(total)
    expect(ranks).toEqual(Array.from({ length: total }, (_, i) => i + 1))
  })

  it('statistics list cutoffs 0.9 … 0.0, each counting results at or above it', async () => {
    const body = (await ok(`${SEARCH}/statistics`)).json()
    expect(body.stats.map((entry: any) => entry.cutoff)).toEqual(['0.9', '0.8', '0.7', '0.6', '0.5', '0.4', '0.3', '0.2', '0.1', '0.0'])
    expect(body.stats.at(-1).numResults).toBe(body.total)
    const all = []
    for (let offset = 0; offset < 300; offset += 100) all.push(...(await ok(`${SEARCH}/results?count=100&offset=${offset}`)).json().items)
    const above = all.filter((item: any) => item.probability >= 0.9).length
    if (above < 300) expect(body.stats[0].numResults).toBe(above)
  })
})

describe('endpoints and stacking (seed rules 4 and 5)', () => {
  it('a stacked endpoint takes the result of the one before as input', async () => {
    const search = (await ok(`${SEARCH}/results?count=100`)).json()
    const filtered = (await ok(`${SEARCH}/e/population/p/min/50000/results?count=100`)).json()
    const expected = search.items.filter((item: any) => item.tuple[0].attributes.population >= 50000)
    expect(filtered.items.slice(0, expected.length).map((item: any) => [item.tuple[0].id, item.probability])).toEqual(
      expected.slice(0, filtered.items.length).map((item: any) => [item.tuple[0].id, item.probability]),
    )
  })

  it('stacks more than two endpoints', async () => {
    const path = `${SEARCH}/e/continent:FILTER/p/value/1(%22Americas%22)/e/country:FILTER/p/value/1(%22US%22)/e/population/p/min/20000/e/sort/p/by/population/results?count=100`
    const body = (await ok(path)).json()
    expect(body.items.length).toBeGreaterThan(5)
    const populations = body.items.map((item: any) => item.tuple[0].attributes.population)
    expect(populations).toEqual([...populations].sort((a, b) => b - a))
    for (const item of body.items) expect(item.tuple[0].attributes.country).toBe('US')
  })

  it('refuses a non-stackable endpoint after another (400)', async () => {
    await refused(`${SEARCH}/e/search/p/query/paris/results`, 400, /"search" is not stackable/)
    await refused(`${SEARCH}/e/countries/results`, 400, /"countries" is not stackable/)
  })

  it('facet options list each value as an OBJ with its count; probability is its share', async () => {
    const { total } = (await ok(`${SEARCH}/count`)).json()
    const options = (await ok(`${SEARCH}/e/continent/results?count=100`)).json()
    const counts = options.items.map((item: any) => item.tuple[0].attributes.count)
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(total)
    for (const item of options.items) {
      expect(item.tuple[0].class).toEqual(['continent'])
      expect(item.probability).toBeCloseTo(item.tuple[0].attributes.count / total, 5)
    }
    const countries = (await ok(`${SEARCH}/e/country/results?count=100`)).json()
    expect(countries.items[0].tuple[0]).toMatchObject({ class: ['country'] })
  })

  it(':FILTER keeps the selected option, in tuple notation', async () => {
    const options = (await ok(`${SEARCH}/e/country/results?count=100`)).json()
    const us = options.items.find((item: any) => item.tuple[0].id === 'US').tuple[0].attributes.count
    const filtered = await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("US")')}/count`)
    expect(filtered.json().total).toBe(us)
    const bare = await ok(`${SEARCH}/e/country:FILTER/p/value/1(US)/count`)
    expect(bare.json().total).toBe(us)
  })

  it(':FILTER with several values is disjunctive within the facet', async () => {
    const count = async (value: string) => (await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent(value)}/count`)).json().total
    const [us, mx, both] = [await count('1("US")'), await count('1("MX")'), await count('1("US")|1("MX")')]
    expect(us).toBeGreaterThan(0)
    expect(mx).toBeGreaterThan(0)
    expect(both).toBe(us + mx)
    const page = (await ok(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("US")|1("MX")')}/results?count=100`)).json()
    for (const item of page.items) expect(['US', 'MX']).toContain(item.tuple[0].attributes.country)
  })

  it(':FILTER refuses a value that is not tuple notation (400)', async () => {
    await refused(`${SEARCH}/e/country:FILTER/p/value/${encodeURIComponent('1("US"')}/results`, 400, /tuple notation/)
  })

  it('the numeric filter keeps min..max and refuses non-numbers', async () => {
    const body = (await ok(`${PLACES}/e/population/p/min/5000000/p/max/9000000/results?count=100`)).json()
    expect(body.items.length).toBeGreaterThan(5)
    for (const item of body.items) expect(item.tuple[0].attributes.population).toBeGreaterThanOrEqual(5000000)
    for (const item of body.items) expect(item.tuple[0].attributes.population).toBeLessThanOrEqual(9000000)
    await refused(`${PLACES}/e/population/p/min/many/results`, 400, /"min" of endpoint "population" must be a whole number/)
  })

  it('the sort modifier orders by an attribute, asc or desc', async () => {
    const asc = (await ok(`${SEARCH}/e/sort/p/by/name/results?count=50`)).json()
    const names = asc.items.map((item: any) => item.tuple[0].attributes.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    const desc = (await ok(`${SEARCH}/e/sort/p/by/population/p/order/asc/results?count=50`)).json()
    const populations = desc.items.map((item: any) => item.tuple[0].attributes.population)
    expect(populations).toEqual([...populations].sort((a, b) => a - b))
    await refused(`${SEARCH}/e/sort/p/by/colour/results`, 400, /"by" of endpoint "sort"/)
  })

  it('the item lookup finds a city by id, and nothing for an unknown id', async () => {
    const body = (await ok(`${PLACES}/e/city/p/id/5128581/results`)).json()
    expect(body.items).toHaveLength(1)
    expect(body.items[0]).toMatchObject({ rank: 1, probability: 1, tuple: [{ id: '5128581', attributes: { name: 'New York City' } }] })
    expect((await ok(`${PLACES}/e/city/p/id/nope/results`)).json().items).toEqual([])
  })

  it('the list endpoint takes no parameters and lists every country by id', async () => {
    expect((await ok(`${PLACES}/e/countries/count`)).json().total).toBe(250)
    const page = (await ok(`${PLACES}/e/countries/results?count=3`)).json()
    expect(ids(page)).toEqual(['AD', 'AE', 'AF'])
    await refused(`${PLACES}/e/countries/p/id/FR/results`, 400, /has no parameter "id" \(it takes none\)/)
  })

  it('a missing required parameter is a 400 naming it', async () => {
    await refused(`${PLACES}/e/search/results`, 400, /"query" of endpoint "search" is required/)
  })
})

describe('errors table', () => {
  it('400 no endpoint: unknown endpoint', async () => {
    await refused(`${PLACES}/e/lookup/p/id/1/results`, 400, 'no endpoint')
  })

  it('401 Invalid or expired token: missing or malformed token, with WWW-Authenticate', async () => {
    for (const token of [null, 'not-a-token', '']) {
      const answer = await refused(`${SEARCH}/results`, 401, 'Invalid or expired token', token)
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    }
  })

  it('the public API answers without a token', async () => {
    const body = (await s.get(`${PUBLIC}/e/search/p/query/paris/results`, null)).json()
    expect(body.items.length).toBeGreaterThan(0)
    await refused(`${PUBLIC}/e/population/p/min/1/results`, 400, 'no endpoint', null)
  })

  it('404 No such api: unknown workspace or api', async () => {
    await refused('/nowhere/api/places/e/search/p/query/x/results', 404, 'No such api')
    await refused('/world/api/weather/e/search/p/query/x/results', 404, 'No such api')
    await refused('/world/api/weather/', 404, 'No such api')
  })

  it('405 for a method other than GET on the Query API', async () => {
    const answer = await fetch(`${s.service.queryUrl}${SEARCH}/results`, { method: 'POST' })
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('GET')
  })
})
