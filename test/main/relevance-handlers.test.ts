import { readFileSync, writeFileSync } from 'node:fs'
import type { ViewPrefs } from '../../src/shared/view-prefs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { EvaluationRuns } from '../../src/main/evaluation/evaluation-runs'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { DOWNLOAD_PATH, DownloadTickets } from '../../src/main/host/download-tickets'
import { relevanceHandlers } from '../../src/main/ipc/handlers/relevance-handlers'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { citiesWorkspace, CITY_RANKINGS, useHandlerSessions } from '../fixtures/handler-session'
import { useTempDirs } from '../fixtures/temp-dirs'
import { scriptedDialogs } from './fixtures/workspace-sessions'
import { untilEnded } from './support'

/**
 * Query sets and their evaluations through the relevance channels, over a
 * real workspace session, data folder database and registry, against a Query
 * API on 127.0.0.1 answering rankings the test wrote.
 */

const CONTENTS = citiesWorkspace([{ query: 'q1', item: 'p2', rater: 'r1', grade: 3 }])

describe('relevanceHandlers', () => {
  const tempDir = useTempDirs('qe-relevance-handlers')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, CITY_RANKINGS)

  /** The window's preferences, as the view-prefs store would hand them. */
  let prefs: ViewPrefs = {}
  beforeEach(() => {
    prefs = {}
  })

  async function handlersOn(host: 'electron' | 'browser' = 'browser') {
    const parts = await sessions.open(CONTENTS)
    const dataDir = parts.dataDir
    const store = new EvaluationStore(dataStore(dataDir))
    const evaluationRuns = sessions.closeAfter(new EvaluationRuns(store, parts.log))
    const scripted = scriptedDialogs()
    const downloads = host === 'browser' ? sessions.closeAfter(new DownloadTickets()) : null
    const handlers = relevanceHandlers({
      ...parts,
      runs: evaluationRuns,
      store,
      files: { dialogs: host === 'electron' ? scripted.dialogs : null, uploads: null },
      prefs: () => prefs,
      downloads,
      exportsDir: join(dataDir, 'exports'),
    })
    return { ...parts, handlers, scripted, downloads }
  }

  it('saves a set from its form, renamed with its judgments kept, and rates in it as this machine\'s user', async () => {
    const { handlers } = await handlersOn()
    await handlers['sets:save']({ set: { name: 'Towns', template: { kind: 'saved', query: 'Template' }, queries: [{ id: 'q1', text: 'paris' }] }, previousName: 'Cities' }, {})
    expect((await handlers['sets:get']({ name: 'Towns' }, {})).judgments).toEqual([{ query: 'q1', item: 'p2', rater: 'r1', grade: 3 }])
    expect((await failureOf(handlers['sets:get']({ name: 'Cities' }, {}))).code).toBe('not_found')
    await handlers['sets:rate']({ set: 'Towns', query: 'q1', item: 'p1', grade: 1 }, {})
    expect((await handlers['sets:get']({ name: 'Towns' }, {})).judgments).toContainEqual({ query: 'q1', item: 'p1', rater: userInfo().username, grade: 1 })
  })

  it('rates under the name the person gave, beside the other raters; Settle writes the adjudicated grade', async () => {
    const { handlers } = await handlersOn()
    expect(await handlers['sets:rater']({}, {})).toEqual({ name: userInfo().username, chosen: false })
    prefs = { rater: 'Ann Smith' }
    expect(await handlers['sets:rater']({}, {})).toEqual({ name: 'Ann Smith', chosen: true })
    // r1 graded q1/p2 3; Ann grades it 1: both kept, one line each.
    await handlers['sets:rate']({ set: 'Cities', query: 'q1', item: 'p2', grade: 1 }, {})
    await handlers['sets:settle']({ set: 'Cities', query: 'q1', item: 'p2', grade: 2 }, {})
    const set = await handlers['sets:get']({ name: 'Cities' }, {})
    expect(set.judgments).toEqual([
      { query: 'q1', item: 'p2', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'p2', rater: 'Ann Smith', grade: 1 },
      { query: 'q1', item: 'p2', rater: 'adjudication', grade: 2 },
    ])
    // Clearing Ann's grade leaves r1's and the settled one.
    await handlers['sets:rate']({ set: 'Cities', query: 'q1', item: 'p2', grade: null }, {})
    expect((await handlers['sets:get']({ name: 'Cities' }, {})).judgments.map((judgment) => judgment.rater)).toEqual(['r1', 'adjudication'])
  })

  it('imports a judgments file the open dialog picks, counting what it took; a file of no known format is refused by name', async () => {
    const { handlers, scripted, dataDir } = await handlersOn('electron')
    const csv = join(dataDir, 'ratings.csv')
    writeFileSync(csv, 'query,docid,rating\nparis,p1,2\nnice,n1,3\n')
    scripted.opens.push(csv)
    const imported = await handlers['sets:import']({ set: 'Cities' }, {})
    expect(imported).toMatchObject({ fileName: 'ratings.csv', queries: 1, judgments: 2 })
    const notes = join(dataDir, 'notes.md')
    writeFileSync(notes, '# not judgments')
    scripted.opens.push(notes)
    expect((await failureOf(handlers['sets:import']({ set: 'Cities' }, {}))).message).toMatch(/^"notes\.md" is not a judgments file this app reads/)
    // No set of that name: refused before any dialog is shown.
    const asked = scripted.asked.length
    expect((await failureOf(handlers['sets:import']({ set: 'Nope' }, {}))).code).toBe('not_found')
    expect(scripted.asked.length).toBe(asked)
  })

  it('exports judgments to the file the save dialog names, or in the browser host as a one-time download', async () => {
    const electron = await handlersOn('electron')
    const path = join(electron.dataDir, 'cities.qrels')
    electron.scripted.saves.push(path)
    expect(await electron.handlers['sets:export']({ set: 'Cities', format: 'trec-qrels' }, {})).toEqual({ fileName: 'cities.qrels', judgments: 1, downloadUrl: null })
    expect(readFileSync(path, 'utf8')).toBe('q1 0 p2 3\n')
    expect(await electron.handlers['sets:export']({ set: 'Cities', format: 'trec-qrels' }, {})).toBeNull()

    const browser = await handlersOn('browser')
    const exported = await browser.handlers['sets:export']({ set: 'Cities', format: 'trec-qrels' }, {})
    expect(exported?.downloadUrl?.startsWith(DOWNLOAD_PATH)).toBe(true)
    const file = browser.downloads!.take(exported!.downloadUrl!.slice(DOWNLOAD_PATH.length))!
    expect(readFileSync(file.path, 'utf8')).toBe('q1 0 p2 3\n')
  })

  it("keeps raters through files: a qrels import is the file's rater's beside r1's, and exports give every rater, the aggregate or one rater's", async () => {
    const { handlers, scripted, dataDir } = await handlersOn('electron')
    const qrels = join(dataDir, 'june.qrels')
    writeFileSync(qrels, 'q1 0 p2 2\nq1 0 p3 1\n')
    scripted.opens.push(qrels)
    expect(await handlers['sets:import']({ set: 'Cities' }, {})).toMatchObject({ fileName: 'june.qrels', judgments: 2, replaced: 0 })
    const set = await handlers['sets:get']({ name: 'Cities' }, {})
    // As the workspace file holds them: by query, item, rater.
    expect(set.judgments).toEqual([
      { query: 'q1', item: 'p2', rater: 'june.qrels', grade: 2 },
      { query: 'q1', item: 'p2', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'p3', rater: 'june.qrels', grade: 1 },
    ])
    expect(set.raters).toContainEqual({ name: 'june.qrels', kind: 'import' })

    const exported = async (request: Record<string, unknown>, name: string) => {
      const path = join(dataDir, name)
      scripted.saves.push(path)
      const reply = await handlers['sets:export']({ set: 'Cities', ...request } as never, {})
      return { reply, text: readFileSync(path, 'utf8') }
    }
    // p2: 3 and 2, a mean of 2.5, written 3.
    expect(await exported({ format: 'trec-qrels' }, 'mean.qrels')).toEqual({ reply: { fileName: 'mean.qrels', judgments: 2, downloadUrl: null }, text: 'q1 0 p2 3\nq1 0 p3 1\n' })
    expect((await exported({ format: 'trec-qrels', grades: { kind: 'rater', rater: 'r1' } }, 'r1.qrels')).text).toBe('q1 0 p2 3\n')
    const quepid = await exported({ format: 'quepid-csv' }, 'all.csv')
    expect(quepid.reply?.judgments).toBe(3)
    // A column per rater, in the set's list (which the workspace file keeps by name).
    expect(quepid.text).toBe('query,docid,june.qrels,r1\r\nparis,p2,2,3\r\nparis,p3,1,\r\nlyon\r\n')
    const unknown = await failureOf(handlers['sets:export']({ set: 'Cities', format: 'trec-qrels', grades: { kind: 'rater', rater: 'zoe' } }, {}))
    expect(unknown).toMatchObject({ code: 'validation', message: 'grades: the set "Cities" has no rater "zoe"; its raters are "june.qrels", "r1".' })

    // Edit set (the form holds no raters) keeps the set's list: the import stays of kind import.
    await handlers['sets:save']({ set: { name: 'Cities', template: { kind: 'saved', query: 'Template' }, notes: 'checked', queries: set.queries }, previousName: 'Cities' }, {})
    expect((await handlers['sets:get']({ name: 'Cities' }, {})).raters).toEqual(set.raters)
  })

  it('evaluates a set in the background, keeps it, and reads it back: figures rescored with today\'s judgments, a run file, deleted', async () => {
    const { handlers } = await handlersOn()
    await handlers['eval:start']({ runId: 'e1', set: 'Cities', depth: 10, metrics: 'p@2' }, {})
    const ended = await untilEnded(() => handlers['eval:status']({ runId: 'e1' }, {}))
    expect([ended.state, ended.done, ended.failed, ended.targetText]).toEqual(['done', 2, 0, 'Local'])
    const id = ended.evaluationId!
    expect((await handlers['eval:list']({}, {})).map((summary) => summary.id)).toEqual([id])
    expect((await handlers['eval:rankings']({ id, offset: 0, limit: 10 }, {})).rankings.map((ranking) => ranking.items)).toEqual([
      ['p1', 'p2', 'p3'],
      ['l1', 'l2'],
    ])
    expect((await handlers['eval:ranking']({ id, query: 'q2' }, {}))?.items).toEqual(['l1', 'l2'])
    // P@2 of q1 is 1/2 (p2 relevant); q2 has no judgments, so it is not counted.
    expect(await handlers['eval:scored']({ id }, {})).toMatchObject({ means: { 'p@2': 0.5 }, counted: 1 })
    // Both of q2's items rated relevant now: its P@2 is 1, the mean (1/2 + 1) / 2.
    await handlers['sets:rate']({ set: 'Cities', query: 'q2', item: 'l1', grade: 2 }, {})
    await handlers['sets:rate']({ set: 'Cities', query: 'q2', item: 'l2', grade: 1 }, {})
    expect(await handlers['eval:scored']({ id }, {})).toMatchObject({ means: { 'p@2': 0.75 }, counted: 2 })

    const run = await handlers['eval:run-file']({ id }, {})
    expect([run?.queries, run?.downloadUrl?.startsWith(DOWNLOAD_PATH)]).toEqual([2, true])
    expect(await handlers['eval:delete']({ id }, {})).toEqual({ deleted: true })
    for (const channel of ['eval:get', 'eval:scored', 'eval:run-file'] as const) {
      const gone = await failureOf(handlers[channel]({ id }, {}))
      expect([gone.code, gone.message]).toEqual(['not_found', `There is no kept evaluation with the id "${id}".`])
    }
  })
})
