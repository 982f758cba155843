import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * How long `query-explorer --help` takes to start and answer, against a bare
 * `node -e 0` in the same run: the command line's own start-up as a ratio
 * of Node's. Runs alternate, so a busy moment hits both alike. It measures
 * the launcher as a person runs it: the built bundle when `npm run build`
 * made one newer than the sources, else the sources through tsx.
 */

const RUNS = 15
const AIM = 4

function timed(args: string[]): number {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: join(__dirname, '..'), stdio: 'ignore' })
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`)
  return performance.now() - started
}

export async function benchCliStart(): Promise<BenchResult[]> {
  const bin = join(__dirname, '..', 'bin', 'query-explorer.cjs')
  const { builtCliIsCurrent } = require('../scripts/cli-bundle.cjs') as { builtCliIsCurrent: () => boolean }
  const bundled = builtCliIsCurrent()
  const cli: number[] = []
  const bare: number[] = []
  timed([bin, '--help'])
  for (let i = 0; i < RUNS; i++) {
    bare.push(timed(['-e', '0']))
    cli.push(timed([bin, '--help']))
  }
  const ratio = median(cli) / median(bare)
  const round = (value: number) => Math.round(value * 10) / 10
  return [
    {
      name: 'command line: query-explorer --help, start to exit',
      value: Math.round(median(cli)),
      unit: 'ms',
      note: `median of ${RUNS}; bare node -e 0 ${Math.round(median(bare))} ms${bundled ? '; the built bundle' : '; no current build (npm run build): the sources ran through tsx'}`,
    },
    { name: 'command line: --help / bare node start-up', value: round(ratio), unit: '×', aim: atMost(round(ratio), AIM, '×') },
  ]
}

runWhenMain(__filename, benchCliStart)
