import { writeFileSync } from 'node:fs'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { EvaluationStore } from '../src/main/evaluation/evaluation-store'
import { DataStore } from '../src/main/storage/data-store/data-store'
import { bigEvaluation } from '../test/fixtures/kept-evaluation'

/**
 * bench/kept-evaluation.ts's seed, in a process of its own so the bench's
 * main thread never holds the 3 M items it then measures opening: makes the
 * evaluation, keeps it in `<dataDir>`'s database as an evaluation that
 * ended does (in parts, checked in the store's thread), writes it as the
 * old JSON record for the baseline, and prints what keeping it cost main.
 * Arguments: dataDir, id, queries, depth, old record's path.
 */
async function seed(): Promise<void> {
  const [dataDir, id, queries, depth, oldFile] = process.argv.slice(2) as [string, string, string, string, string]
  const evaluation = bigEvaluation(id, Number(queries), Number(depth))
  writeFileSync(oldFile, JSON.stringify(evaluation))
  const data = new DataStore(dataDir)
  await data.info()
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const started = performance.now()
  await new EvaluationStore(data).add(evaluation)
  const wall = performance.now() - started
  delay.disable()
  await data.close()
  process.stdout.write(JSON.stringify({ wall, block: delay.max / 1e6 }))
}

seed().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
