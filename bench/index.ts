import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { benchCodec } from './codec'
import type { BenchResult } from './result'

/**
 * `npm run bench`: every benchmark of the project, printed as one table.
 * The service's benchmark (bench/service.ts) is optional, so this runs while
 * it is still being written.
 */

function table(results: readonly BenchResult[]): string {
  const rows = results.map((r) => [r.name, r.value.toLocaleString('en-US'), r.unit, r.note ?? ''])
  const header = ['benchmark', 'value', 'unit', 'note']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

async function main(): Promise<void> {
  const results: BenchResult[] = [...benchCodec()]
  if (existsSync(join(__dirname, 'service.ts'))) {
    // A specifier in a variable: the type checker must not require a file that may not exist yet.
    const specifier = './service'
    const service = (await import(specifier)) as { benchService?: () => Promise<BenchResult[]> }
    if (typeof service.benchService === 'function') results.push(...(await service.benchService()))
  }
  results.push(...(await (await import('./query-client')).benchQueryClient()))
  results.push(...(await (await import('./renderer')).benchRenderer()))
  console.log(table(results))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
