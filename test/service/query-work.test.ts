import { beforeAll, describe, expect, it } from 'vitest'
import { buildDataset } from '../../src/service/dataset/load'
import { buildTextIndex } from '../../src/service/dataset/text-index'
import type { Reply } from '../../src/service/http/reply'
import { createChainCache } from '../../src/service/query/chain-cache'
import { checkQuery } from '../../src/service/query/query-check'
import { runQuery, type QueryEngine } from '../../src/service/query/query-work'
import { ServiceError } from '../../src/service/refusal'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'
import type { QueryRequest } from '../../src/shared/query/model'
import { tinySource } from '../fixtures/tiny-dataset'

/**
 * A checked query's work over the tiny dataset (six cities; see
 * test/fixtures/tiny-dataset.ts), answered in every response type, worked out
 * by hand. A chain that starts with a filter gets every city by id, each with
 * probability 1: of the five cities of 2,000 people or more, in id order,
 * 1000 San San (BR), 1853909 Ōsaka-shi (JP), 2657896 Zürich (CH),
 * 3448439 São Paulo (BR), 99 𝔊ötterdämmerung (JP).
 */

let engine: QueryEngine
beforeAll(() => {
  const dataset = buildDataset(tinySource())
  engine = { workspaces: hostedWorkspaces(), dataset, text: buildTextIndex(dataset.cities), chainCache: createChainCache(), budgetMs: 60_000 }
})

const BIG = [{ endpoint: 'population', parameters: { min: '2000' } }]
const answer = (request: Partial<QueryRequest>) => {
  const places = engine.workspaces.get('world')!.apis.get('places')!
  return runQuery(engine, checkQuery({ workspace: 'world', api: 'places', steps: BIG, responseType: 'results', options: {}, ...request }, 'world', places))
}
const json = (reply: Reply) => JSON.parse(reply.body.toString()) as unknown
const idsOf = (body: unknown) => (body as { items: { rank: number; tuple: { id: string }[] }[] }).items.map((item) => [item.rank, item.tuple[0]!.id])
const statistics = (counts: number[]) => ({ total: counts[counts.length - 1], stats: counts.map((numResults, i) => ({ cutoff: (0.9 - i / 10).toFixed(1), numResults })) })

describe('runQuery', () => {
  it('answers count, statistics and a page of results with absolute ranks', async () => {
    expect(json(await answer({ responseType: 'count' }))).toEqual({ total: 5 })
    expect(json(await answer({ responseType: 'statistics' }))).toEqual(statistics([5, 5, 5, 5, 5, 5, 5, 5, 5, 5]))
    const page = await answer({ options: { count: 2, offset: 1 } })
    expect([page.status, page.headers['Content-Type']]).toEqual([200, 'application/json; charset=utf-8'])
    expect(json(page)).toMatchObject({ offset: 1, count: 2, type: ['OBJ'] })
    expect(idsOf(json(page))).toEqual([
      [2, '1853909'],
      [3, '2657896'],
    ])
  })

  it('answers results,count as [results, statistics], and resultpage with entity views', async () => {
    const [results, stats] = json(await answer({ responseType: 'results,count', options: { count: 1 } })) as [unknown, unknown]
    expect(idsOf(results)).toEqual([[1, '1000']])
    expect(stats).toEqual(statistics([5, 5, 5, 5, 5, 5, 5, 5, 5, 5]))
    expect(json(await answer({ responseType: 'resultpage', options: { count: 1 } }))).toMatchObject({
      items: [{ rank: 1, probability: 1, tuple: [{ id: '1000', class: 'city', name: 'San San', country: { id: 'BR', class: 'country', name: 'Brazil' } }] }],
    })
  })

  it('cuts off at the probability asked for, in the results and their statistics', async () => {
    // "San San" matches "san" whole; "São Paulo" matches "sao" only, and scores 0.679506 of it.
    const search = [{ endpoint: 'search', parameters: { query: 'san sao' } }]
    expect(json(await answer({ steps: search, responseType: 'statistics' }))).toEqual(statistics([1, 1, 1, 2, 2, 2, 2, 2, 2, 2]))
    expect(idsOf(json(await answer({ steps: search, options: { cutoff: 0.6 } })))).toEqual([
      [1, '1000'],
      [2, '3448439'],
    ])
    expect(idsOf(json(await answer({ steps: search, options: { cutoff: 0.7 } })))).toEqual([[1, '1000']])
    expect(json(await answer({ steps: search, responseType: 'count', options: { cutoff: 0.7 } }))).toEqual({ total: 1 })
  })

  it('answers resultitem with the one entity asked for, a 404 past the last rank and a 400 past the last column', async () => {
    expect(json(await answer({ responseType: 'resultitem', options: { rank: 2 } }))).toEqual({
      id: '1853909',
      class: 'city',
      name: 'Ōsaka-shi',
      country: { id: 'JP', class: 'country', name: 'JP' },
      population: 2_700_000,
      kind: 'place',
      latitude: 34.69374,
      longitude: 135.5,
    })
    await expect(answer({ responseType: 'resultitem', options: { rank: 6 } })).rejects.toEqual(new ServiceError(404, 'No result at rank 6: the request has 5 results'))
    await expect(answer({ responseType: 'resultitem', options: { column: 2 } })).rejects.toEqual(
      new ServiceError(400, 'Option column 2 is past the last column of the results (they have 1)'),
    )
  })

  it('writes a page as csv, and as an xlsx workbook to download', async () => {
    const csv = await answer({ options: { format: 'csv', count: 2 } })
    expect(csv.headers['Content-Type']).toBe('text/csv; charset=utf-8')
    expect(csv.body.toString()).toBe(
      'rank,probability,1.id,1.class,1.name,1.country,1.population,1.kind,1.latitude,1.longitude\r\n' +
        '1,1,1000,city,San San,BR,2000,place,2.5,1.12346\r\n' +
        '2,1,1853909,city,Ōsaka-shi,JP,2700000,place,34.69374,135.5\r\n',
    )
    const xlsx = await answer({ options: { format: 'xlsx', count: 2 } })
    expect(xlsx.headers).toEqual({ 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': 'attachment; filename="results.xlsx"' })
    expect((xlsx.body as Buffer).subarray(0, 2).toString('latin1')).toBe('PK')
  })

  it("lists a facet's options with their counts; selected ones first, even one no result has", async () => {
    expect(json(await answer({ steps: [], responseType: 'options', facet: 'country' }))).toEqual({
      id: 'country',
      title: 'Country',
      selected: [],
      options: [
        { id: 'BR', score: 2, value: 'BR', title: 'Brazil' },
        { id: 'CH', score: 2, value: 'CH', title: 'CH' },
        { id: 'JP', score: 2, value: 'JP', title: 'JP' },
      ],
    })
    // multiselect: counted without the facet's own filter, so the other options stay; count asks for a page of them.
    const filtered = [{ endpoint: 'country:FILTER', parameters: { value: '1("CH")|1("ZZ")' } }]
    expect(json(await answer({ steps: filtered, responseType: 'options', facet: 'country', options: { multiselect: true, count: 1 } }))).toEqual({
      id: 'country',
      title: 'Country',
      selected: [
        { id: 'CH', score: 2, value: 'CH', title: 'CH' },
        { id: 'ZZ', score: 0, value: 'ZZ', title: 'ZZ' },
      ],
      options: [{ id: 'BR', score: 2, value: 'BR', title: 'Brazil' }],
    })
  })

  it('fails, as a fault rather than a refusal, a checked query naming an api this engine does not host', async () => {
    const places = engine.workspaces.get('world')!.apis.get('places')!
    const checked = checkQuery({ workspace: 'world', api: 'places', steps: BIG, responseType: 'count', options: {} }, 'world', places)
    const failure = await runQuery(engine, { ...checked, api: 'nowhere' }).catch((error: unknown) => error)
    expect(failure).not.toBeInstanceOf(ServiceError)
    expect((failure as Error).message).toBe('a checked query names an api this thread does not host: world/nowhere')
  })
})
