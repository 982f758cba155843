import { resolve } from 'node:path'

/** One figure of `npm run bench`. */
export interface BenchResult {
  name: string
  value: number
  unit: string
  note?: string
}

/** Lets a benchmark module also run alone (`npx tsx bench/service.ts`), printing its figures. */
export function runWhenMain(moduleFile: string, bench: () => Promise<BenchResult[]>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== moduleFile) return
  bench().then(
    (results) => {
      for (const result of results) console.log(`${result.name}: ${result.value} ${result.unit}${result.note ? `  (${result.note})` : ''}`)
    },
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
