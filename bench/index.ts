import { join } from 'node:path'
import { benchAgreement } from './agreement'
import { benchAppStart } from './app-start'
import { importBundled } from './bundled'
import { benchCliStart } from './cli-start'
import { benchEvaluation } from './evaluation'
import { benchEvalMemory } from './eval-memory'
import { benchExperiment } from './experiment'
import { benchExport } from './export'
import { benchJudgeNext } from './judge-next'
import { benchJudging } from './judging'
import { benchKeptEvaluation } from './kept-evaluation'
import { benchQueryClient } from './query-client'
import { benchRating } from './rating'
import { benchRenderer } from './renderer'
import { benchService } from './service'
import { benchTestCases } from './test-cases'
import { benchWorkspaceFiles } from './workspace-files'
import type { BenchResult } from './result'

/**
 * `npm run bench`: every benchmark of the project, printed as one table. Each
 * reports against a baseline run in the same process, so figures from a busy
 * machine still compare.
 */

function table(results: readonly BenchResult[]): string {
  const rows = results.map((r) => [r.name, r.value.toLocaleString('en-US'), r.unit, r.note ?? ''])
  const header = ['benchmark', 'value', 'unit', 'note']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

async function main(): Promise<void> {
  const codec = await importBundled<typeof import('./codec')>(join(__dirname, 'codec.ts'))
  const results: BenchResult[] = [...codec.benchCodec()]
  results.push(...(await benchCliStart()))
  results.push(...(await benchAppStart()))
  results.push(...(await benchService()))
  results.push(...(await benchQueryClient()))
  results.push(...(await benchTestCases()))
  results.push(...(await benchEvaluation()))
  results.push(...(await benchExperiment()))
  results.push(...(await benchEvalMemory()))
  results.push(...(await benchExport()))
  results.push(...(await benchRating()))
  results.push(...(await benchKeptEvaluation()))
  results.push(...(await benchAgreement()))
  results.push(...(await benchJudgeNext()))
  results.push(...(await benchJudging()))
  results.push(...(await benchWorkspaceFiles()))
  results.push(...(await benchRenderer()))
  console.log(table(results))
  console.log(`\n${aims(results)}`)
}

/** A line per aim of the issue on speed: the figure, the aim, met or not, in this run. */
function aims(results: readonly BenchResult[]): string {
  const judged = results.filter((r) => r.aim)
  const met = judged.filter((r) => r.aim!.met).length
  const lines = judged.map((r) => `${r.aim!.met ? 'met    ' : 'not met'}  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit} (aim ${r.aim!.text})`)
  return [`Aims: ${met} of ${judged.length} met`, ...lines].join('\n')
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
