import type { QueryRequest } from '../src/shared/query/model'
import { buildUrl, parseUrl, rootMemo } from '../src/shared/query/url'
import { atLeast, type BenchResult } from './result'

/**
 * Build + parse of a 10-step chain, the work done on every keystroke of the
 * chain editor and every history entry. Beside it, JSON.stringify + parse of
 * the same request in the same process: the ratio says how the codec
 * compares on this machine, whatever its speed.
 */

const BASE = 'https://query.example.com'
/**
 * The ratio aimed at: reading a chain back must cost clearly less than the
 * JSON round trip it stands beside. The machine's load moves the two figures
 * apart from run to run (they are timed one after the other), so read the
 * ratio over a few runs.
 */
const AIM = 1.2

export const TEN_STEP_CHAIN: QueryRequest = {
  version: '4',
  workspace: 'world',
  api: 'places',
  steps: [
    { context: { lang: 'en', region: 'Europe/West' } },
    { endpoint: 'search', parameters: { query: 'new york city', fields: 'name,alt names' } },
    { endpoint: 'country', parameters: {} },
    { endpoint: 'country:FILTER', parameters: { value: '1("https://ex.org/US")|1("https://ex.org/CA")' } },
    { endpoint: 'continent:FILTER', parameters: { value: '1("https://ex.org/NorthAmerica")' } },
    { endpoint: 'population', parameters: { min: '100000', max: '20000000' } },
    { context: { unit: 'km²' } },
    { endpoint: 'near', parameters: { lat: '40.7128', lon: '-74.0060', radius: '50' } },
    { endpoint: 'sort', parameters: { by: 'population', order: 'desc' } },
    { endpoint: 'names', parameters: { script: 'Latn', 'with quotes': 'say "hi" 😀' } },
  ],
  responseType: 'results',
  options: { config: 'production', count: 25, offset: 50, format: 'json', level: 2, homogeneousArrays: true, cutoff: 0.25 },
}

/** Runs `op` for about `ms` milliseconds after a warm-up; operations per second. */
function opsPerSecond(op: () => unknown, ms = 1000): number {
  let sink = 0
  for (let i = 0; i < 5000; i++) sink += op() ? 1 : 0
  let ops = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) sink += op() ? 1 : 0
    ops += 1000
    elapsed = performance.now() - start
  }
  if (sink < 0) throw new Error('unreachable: keeps the work from being optimised away')
  return (ops / elapsed) * 1000
}

export function benchCodec(): BenchResult[] {
  // Check the work measured is the real round trip before timing it.
  const url = buildUrl(BASE, TEN_STEP_CHAIN)
  const back = parseUrl(url)
  if (!back.ok || JSON.stringify(back.value.request.steps) !== JSON.stringify(TEN_STEP_CHAIN.steps)) {
    throw new Error(`the 10-step chain does not round-trip: ${url}`)
  }
  // As the app writes URLs: each writer (the runner, the chain and facet stores) keeps a memo of the API root it last wrote.
  const root = rootMemo()
  const codec = opsPerSecond(() => parseUrl(buildUrl(BASE, TEN_STEP_CHAIN, root)).ok)
  const build = opsPerSecond(() => buildUrl(BASE, TEN_STEP_CHAIN, root).length)
  const buildFresh = opsPerSecond(() => buildUrl(BASE, TEN_STEP_CHAIN).length)
  const parse = opsPerSecond(() => parseUrl(url).ok)
  const json = opsPerSecond(() => JSON.parse(JSON.stringify(TEN_STEP_CHAIN)) as unknown)
  const ratio = Number((codec / json).toFixed(2))
  return [
    { name: 'codec: build+parse, 10-step chain', value: Math.round(codec), unit: 'ops/s', note: `aim > 100000; URL ${url.length} chars` },
    { name: 'codec: build only', value: Math.round(build), unit: 'ops/s', note: 'with the writer\'s root memo, as the app builds' },
    { name: 'codec: build only, root written afresh', value: Math.round(buildFresh), unit: 'ops/s', note: 'a one-off URL (Copy as, the CLI)' },
    { name: 'codec: parse only', value: Math.round(parse), unit: 'ops/s' },
    { name: 'baseline: JSON.stringify+parse, same request', value: Math.round(json), unit: 'ops/s' },
    {
      name: 'codec vs JSON baseline',
      value: ratio,
      unit: 'ratio',
      note: 'build+parse over the baseline; 1.0 = as fast as a JSON round trip',
      aim: atLeast(ratio, AIM, '×'),
    },
  ]
}
