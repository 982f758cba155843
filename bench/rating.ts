import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createAppCore, type AppCore } from '../src/main/app/app-core'
import type { FileDialogs } from '../src/main/host/file-dialogs'
import { writeFileAtomic } from '../src/main/storage/atomic-file'
import { withRating } from '../src/shared/relevance/set-edits'
import { parseWorkspace, serializeWorkspace, type Workspace } from '../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../test/fixtures/big-workspace'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * A rating in a set of 200,000 judgments (issue 33), through an Electron app
 * core's `sets:rate` as Judge sends it: the reply's time, and the main
 * thread's busy time within it (event-loop utilization: the journal's write
 * on the store's thread and its fsync are waits, not work). Ratings
 * alternate between re-grading a judgment the set has and clearing and
 * adding one, so both the in-place and the append paths are timed.
 *
 * The baseline, in the same run on the same document: what the old path did
 * on main for every rating (withRating, the whole document serialized, read
 * back through the schema, its digest, session.json written), the figure the
 * issue saw growing with the set.
 */

const RUNS = 21
const BASELINE_RUNS = 3
const MAIN_AIM_MS = 16
const REPLY_AIM_MS = 50

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The main thread's busy milliseconds and the wall milliseconds of `work`. */
async function timed(work: () => Promise<unknown>): Promise<{ busy: number; wall: number }> {
  const before = performance.eventLoopUtilization()
  const started = performance.now()
  await work()
  const wall = performance.now() - started
  return { busy: performance.eventLoopUtilization(before).active, wall }
}

async function rate(core: AppCore, request: { query: string; item: string; grade: number | null }): Promise<void> {
  const result = await core.dispatch('sets:rate', { set: BIG_SET, ...request })
  if (!result.ok) throw new Error(`sets:rate: ${result.error.message}`)
}

/** The old path's work for one rating, on main. */
async function oldRating(workspace: Workspace, sessionFile: string, grade: number): Promise<Workspace> {
  const first = workspace.sets!.find((set) => set.name === BIG_SET)!.judgments[0]!
  const next = withRating(workspace, BIG_SET, { query: first.query, item: first.item, rater: first.rater, grade })
  const document = serializeWorkspace(next)
  const reread = parseWorkspace(document, 'bench.qxw.json')
  if (!reread.ok) throw new Error(reread.message)
  createHash('sha256').update(document, 'utf8').digest('hex')
  await writeFileAtomic(sessionFile, `${JSON.stringify({ version: 1, document })}\n`)
  return reread.workspace
}

export async function benchRating(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'qe-bench-rating-'))
  const path = join(root, 'big.qxw.json')
  const workspace = bigWorkspace()
  writeFileSync(path, serializeWorkspace(workspace))
  const opens = [path]
  const dialogs: FileDialogs = { chooseOpen: async () => opens.shift() ?? null, chooseSave: async () => null }
  let core: AppCore | null = null
  try {
    core = await createAppCore({ dataDir: join(root, 'data'), host: 'electron', version: 'bench', keychainService: 'query-explorer-bench', demo: 'none', dialogs })
    const opened = await core.dispatch('workspace:open', {})
    if (!opened.ok) throw new Error(`workspace:open: ${opened.error.message}`)
    const judgments = workspace.sets!.find((set) => set.name === BIG_SET)!.judgments
    // A warm-up: the store's thread opens, the set's index is made (once for the session).
    await rate(core, { query: judgments[0]!.query, item: judgments[0]!.item, grade: 0 })
    const busy: number[] = []
    const wall: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const judgment = judgments[1 + run]!
      const work =
        run % 2 === 0
          ? () => rate(core!, { query: judgment.query, item: judgment.item, grade: run % 4 })
          : async () => {
              await rate(core!, { query: judgment.query, item: judgment.item, grade: null })
              await rate(core!, { query: judgment.query, item: `bench-${run}`, grade: 2 })
            }
      const figures = await timed(work)
      const ratings = run % 2 === 0 ? 1 : 2
      busy.push(figures.busy / ratings)
      wall.push(figures.wall / ratings)
    }

    let document = workspace
    const old: number[] = []
    for (let run = 0; run < BASELINE_RUNS; run++) {
      old.push((await timed(async () => (document = await oldRating(document, join(root, 'session.json'), run % 4)))).busy)
    }

    const mainMs = round(median(busy), 2)
    const replyMs = round(median(wall), 2)
    const oldMs = round(median(old))
    return [
      {
        name: 'rating: main-thread time at 200,000 judgments',
        value: mainMs,
        unit: 'ms',
        note: `median of ${RUNS}; the old path (whole document serialized and re-read) ${oldMs.toLocaleString('en-US')} ms, ${round(oldMs / Math.max(mainMs, 0.01), 0)}×`,
        aim: atMost(mainMs, MAIN_AIM_MS, 'ms'),
      },
      { name: 'rating: reply at 200,000 judgments', value: replyMs, unit: 'ms', note: `median of ${RUNS}, journaled (fsync) before the reply`, aim: atMost(replyMs, REPLY_AIM_MS, 'ms') },
    ]
  } finally {
    await core?.close()
    rmSync(root, { recursive: true, force: true })
  }
}

runWhenMain(__filename, benchRating)
