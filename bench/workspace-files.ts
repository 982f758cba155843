import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { serialize } from 'node:v8'
import { createAppCore, type AppCore } from '../src/main/app/app-core'
import type { FileDialogs } from '../src/main/host/file-dialogs'
import { writeFileAtomic } from '../src/main/storage/atomic-file'
import { SetMirror } from '../src/main/workspaces/set-mirror'
import { documentFor } from '../src/main/workspaces/workspace-files'
import { parseWorkspace, serializeWorkspace } from '../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../test/fixtures/big-workspace'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * Opening and saving a workspace of 10,000 queries and 200,000 judgments
 * (issue 33) through an Electron app core's `workspace:open` and
 * `workspace:save`, as the window asks: the wall time, and the longest time
 * the main thread was held meanwhile (an interval timer's greatest lateness). The save follows a rating, so
 * the file thread has a changed set to write.
 *
 * The baseline, in the same run on the same file: the old path on main
 * (read, parse and check, serialize; serialize and write).
 */

const RUNS = 5
const OPEN_AIM_MS = 1_000
const SAVE_AIM_MS = 1_000

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits

/**
 * The wall milliseconds of `work`, and the longest the event loop was held
 * meanwhile: the greatest lateness of a 1 ms interval timer (a timer cannot
 * fire while main is busy, so a block shows as one late tick).
 */
async function held(work: () => Promise<unknown>): Promise<{ wall: number; block: number }> {
  let last = performance.now()
  let block = 0
  const tick = setInterval(() => {
    const now = performance.now()
    block = Math.max(block, now - last)
    last = now
  }, 1)
  const started = performance.now()
  await work()
  const wall = performance.now() - started
  // One more tick, so a block at the very end is seen.
  await new Promise((resolve) => setTimeout(resolve, 2))
  clearInterval(tick)
  return { wall, block }
}

async function ok(core: AppCore, channel: string, request: unknown): Promise<void> {
  const result = await core.dispatch(channel, request)
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`)
}

/** The main thread's cost of handing the big set to the file thread: whole (structured clone), in parts, and by id after a rating. */
async function handOff(): Promise<{ whole: number; parts: number; longestPart: number; byId: number }> {
  const workspace = bigWorkspace()
  const whole = median(Array.from({ length: 3 }, () => {
    const started = performance.now()
    serialize(workspace)
    return performance.now() - started
  }))
  const mirror = new SetMirror()
  const partTimes: number[] = []
  let partsTotal = 0
  await mirror.encode(workspace, (part) => {
    const at = performance.now()
    serialize(part)
    const took = performance.now() - at
    partTimes.push(took)
    partsTotal += took
  })
  const set = workspace.sets!.find((each) => each.name === BIG_SET)!
  const first = set.judgments[0]!
  const rated = { ...set, judgments: set.judgments.map((judgment) => (judgment === first ? { ...first, grade: (first.grade + 1) % 4 } : judgment)) }
  mirror.rated(set, rated, { set: BIG_SET, query: first.query, item: first.item, rater: first.rater, grade: (first.grade + 1) % 4 })
  const next = { ...workspace, sets: workspace.sets!.map((each) => (each === set ? rated : each)) }
  const at = performance.now()
  const wire = await mirror.encode(next, () => {
    throw new Error('a set went in full after a rating')
  })
  serialize(wire)
  const byId = performance.now() - at
  return { whole, parts: partsTotal, longestPart: Math.max(...partTimes), byId }
}

export async function benchWorkspaceFiles(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'qe-bench-wsfiles-'))
  const path = join(root, 'big.qxw.json')
  const workspace = bigWorkspace()
  writeFileSync(path, serializeWorkspace(workspace))
  const opens: string[] = []
  const dialogs: FileDialogs = { chooseOpen: async () => opens.shift() ?? null, chooseSave: async () => null }
  let core: AppCore | null = null
  try {
    core = await createAppCore({ dataDir: join(root, 'data'), host: 'electron', version: 'bench', keychainService: 'query-explorer-bench', demo: 'none', dialogs })
    const judgments = workspace.sets!.find((set) => set.name === BIG_SET)!.judgments
    const open: { wall: number; block: number }[] = []
    const save: { wall: number; block: number }[] = []
    for (let run = 0; run < RUNS; run++) {
      opens.push(path)
      open.push(await held(() => ok(core!, 'workspace:open', {})))
      const judgment = judgments[run]!
      await ok(core, 'sets:rate', { set: BIG_SET, query: judgment.query, item: judgment.item, grade: (judgment.grade + 1) % 4 })
      save.push(await held(() => ok(core!, 'workspace:save', {})))
    }

    // The old path, on main, in this run.
    const oldOpen: { wall: number; block: number }[] = []
    const oldSave: { wall: number; block: number }[] = []
    for (let run = 0; run < 3; run++) {
      let read = workspace
      oldOpen.push(
        await held(async () => {
          const text = readFileSync(path, 'utf8')
          const parsed = parseWorkspace(text, 'big.qxw.json')
          if (!parsed.ok) throw new Error(parsed.message)
          read = parsed.workspace
          documentFor(read, Buffer.byteLength(text, 'utf8'))
        }),
      )
      oldSave.push(await held(() => writeFileAtomic(join(root, 'old.qxw.json'), serializeWorkspace(read), 'umask')))
    }
    const hand = await handOff()

    const figure = (runs: { wall: number; block: number }[], key: 'wall' | 'block') => round(median(runs.map((run) => run[key])))
    const openWall = figure(open, 'wall')
    const saveWall = figure(save, 'wall')
    return [
      {
        name: 'workspace: open 10,000 queries, 200,000 judgments',
        value: openWall,
        unit: 'ms',
        note: `median of ${RUNS}; on main the old way ${figure(oldOpen, 'wall').toLocaleString('en-US')} ms`,
        aim: atMost(openWall, OPEN_AIM_MS, 'ms'),
      },
      {
        name: 'workspace: open, longest main-thread block',
        value: figure(open, 'block'),
        unit: 'ms',
        note: `the old way ${figure(oldOpen, 'block').toLocaleString('en-US')} ms (parse, check, serialize on main)`,
      },
      {
        name: 'workspace: save after a rating',
        value: saveWall,
        unit: 'ms',
        note: `median of ${RUNS}; on main the old way ${figure(oldSave, 'wall').toLocaleString('en-US')} ms`,
        aim: atMost(saveWall, SAVE_AIM_MS, 'ms'),
      },
      {
        name: 'workspace: save, longest main-thread block',
        value: figure(save, 'block'),
        unit: 'ms',
        note: `the old way ${figure(oldSave, 'block').toLocaleString('en-US')} ms (serialize on main)`,
      },
      {
        name: 'workspace: handing the 200,000-judgment set to the file thread, main',
        value: round(hand.byId, 2),
        unit: 'ms',
        note: `by id after a rating; in full ${round(hand.parts)} ms in parts of 10,000 (longest ${round(hand.longestPart, 1)} ms), as one structured clone ${round(hand.whole)} ms`,
      },
    ]
  } finally {
    await core?.close()
    rmSync(root, { recursive: true, force: true })
  }
}

runWhenMain(__filename, benchWorkspaceFiles)
