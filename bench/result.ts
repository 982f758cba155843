import { resolve } from 'node:path'

/** One figure of `npm run bench`. */
export interface BenchResult {
  name: string
  value: number
  unit: string
  note?: string
  /** The issue's aim for this figure, judged in the run that measured it: `npm run bench` prints a line per aim. */
  aim?: Aim
}

/** An aim as written (e.g. "≤ 400 ms"), and whether this run met it. */
export interface Aim {
  text: string
  met: boolean
}

/** An aim of at most `limit` (a time, a count, a ratio). */
export const atMost = (value: number, limit: number, unit = ''): Aim => ({ text: `≤ ${limit.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`, met: value <= limit })

/** An aim of at least `limit` (a speed-up ratio). */
export const atLeast = (value: number, limit: number, unit = ''): Aim => ({ text: `≥ ${limit.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`, met: value >= limit })

/** Lets a benchmark module also run alone (`npx tsx bench/service.ts`), printing its figures. */
export function runWhenMain(moduleFile: string, bench: () => Promise<BenchResult[]>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== moduleFile) return
  bench().then(
    (results) => {
      for (const result of results) console.log(`${result.name}: ${result.value} ${result.unit}${result.note ? `  (${result.note})` : ''}${result.aim ? `  [aim ${result.aim.text}: ${result.aim.met ? 'met' : 'not met'}]` : ''}`)
    },
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
