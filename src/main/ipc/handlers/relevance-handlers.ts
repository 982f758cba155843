import { randomUUID } from 'node:crypto'
import { ADJUDICATION_RATER } from '../../../shared/relevance/raters'
import type { ViewPrefs } from '../../../shared/view-prefs'
import { mkdir, writeFile } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { basename, join } from 'node:path'
import type { RelevanceChannel, SetForm } from '../../../shared/ipc/relevance-contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import { judgmentFileName, judgmentFormatOf, MAX_JUDGMENT_FILE_BYTES, parseJudgments, writeJudgments, type JudgmentFormat } from '../../../shared/relevance/judgment-files'
import { gradesOfSet } from '../../../shared/relevance/grade-aggregate'
import { settingsOf, type QuerySet } from '../../../shared/relevance/query-set'
import { requireSet, setsOf, withImport, withoutSet, withSet } from '../../../shared/relevance/set-edits'
import type { Workspace } from '../../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import { agreementOfSet } from '../../evaluation/agreement-thread'
import { evaluateSet } from '../../evaluation/evaluate-set'
import { evaluationJudgeNext } from '../../evaluation/judge-next-thread'
import { runFileName } from '../../evaluation/run-file'
import type { EvaluationRuns } from '../../evaluation/evaluation-runs'
import type { EvaluationStore } from '../../evaluation/evaluation-store'
import type { QueryRunner } from '../../http/query-runner'
import { setRunInputs, setTarget } from '../../evaluation/set-inputs'
import type { WorkspaceSession } from '../../workspaces/workspace-session'
import { chosenFileText, type ChosenFiles, type FileKind } from '../../host/chosen-files'
import { DOWNLOAD_PATH, type DownloadTickets } from '../../host/download-tickets'
import type { DomainHandlers } from '../handler-table'

export interface RelevanceHandlerDeps {
  session: WorkspaceSession
  registry: ConnectionRegistry
  runner: QueryRunner
  runs: EvaluationRuns
  store: EvaluationStore
  /** Where a judgments file comes from: Electron's open dialog, or the browser host's uploads. */
  files: ChosenFiles
  /** Where a TREC run goes: Electron's save dialog (files.dialogs), or a file in `exportsDir` handed over as a one-time download. */
  downloads: DownloadTickets | null
  exportsDir: string
  /** The window's preferences, where the rater's name is kept. */
  prefs: () => ViewPrefs
}

const JUDGMENTS_FILE: FileKind = {
  title: 'Import judgments',
  filters: [
    { name: 'Judgments (Quepid CSV, TREC qrels, RRE ratings JSON)', extensions: ['csv', 'qrels', 'txt', 'json'] },
    { name: 'All files', extensions: ['*'] },
  ],
  maxBytes: MAX_JUDGMENT_FILE_BYTES,
  noun: 'a judgments file',
  upload: 'judgments',
  overBound: 'split it into smaller files and import each.',
}

/** How each judgments format is written and offered: the save dialog's filter, the download's type. */
const EXPORTED: Record<JudgmentFormat, { filter: string; extension: string; contentType: string }> = {
  'quepid-csv': { filter: 'Quepid CSV', extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  'trec-qrels': { filter: 'TREC qrels', extension: 'qrels', contentType: 'text/plain; charset=utf-8' },
  'rre-json': { filter: 'RRE ratings JSON', extension: 'json', contentType: 'application/json; charset=utf-8' },
}

/** The OS account's user name: who a rating is by until the person gives their name. */
function osUserName(): string {
  try {
    return userInfo().username.trim().slice(0, 200) || 'unknown'
  } catch {
    return 'unknown'
  }
}

/** The set the dialog describes, on the document as it is now (its judgments kept from the set it replaces). */
function setFromForm(workspace: Workspace, form: SetForm, fileConnectionId: string | null, previousName: string | undefined): QuerySet {
  const previous = previousName === undefined ? null : requireSet(workspace, previousName)
  const template = form.template.kind === 'saved' ? { query: form.template.query } : { connection: fileConnectionId!, request: form.template.request }
  return {
    name: form.name,
    ...template,
    ...(form.notes ? { notes: form.notes } : {}),
    ...(form.scale ? { scale: form.scale } : {}),
    ...(form.settings ? { settings: form.settings } : {}),
    // The form holds no raters: the set's list (each rater's kind) goes on with its judgments.
    ...(previous?.raters ? { raters: previous.raters } : {}),
    queries: form.queries,
    judgments: previous?.judgments ?? [],
  }
}

/** Query sets (edits, ratings, judgment files) and their evaluations. */
export function relevanceHandlers({ session, registry, runner, runs, store, files, downloads, exportsDir, prefs }: RelevanceHandlerDeps): DomainHandlers<RelevanceChannel> {
  const document = async () => (await session.testContext()).workspace
  const notKept = (id: string) => new ExplorerError('not_found', `There is no kept evaluation with the id "${id.slice(0, 80)}".`)
  const head = async (id: string) => {
    const found = await store.head(id)
    if (!found) throw notKept(id)
    return found
  }
  /** What a kept evaluation ran on, without its per-query figures (a head is ~1 MB at 3,000 queries). */
  const summary = async (id: string) => {
    const found = await store.summary(id)
    if (!found) throw notKept(id)
    return found
  }
  /** The document's set of that name as it is now; null when it is gone (renamed, deleted). */
  const setNamed = async (name: string) => setsOf(await document()).find((set) => set.name === name) ?? null
  return {
    'sets:get': async ({ name }) => requireSet(await document(), name),
    'sets:save': ({ set, previousName }) =>
      session.edit(
        (workspace, fileConnectionId) => withSet(workspace, setFromForm(workspace, set, fileConnectionId, previousName), previousName),
        set.template.kind === 'editor' ? set.template.connectionId : undefined,
      ),
    'sets:delete': ({ name }) => session.edit((workspace) => withoutSet(workspace, name)),
    'sets:rate': ({ set, query, item, grade }) => session.rate({ set, query, item, grade, rater: prefs().rater ?? osUserName() }),
    'sets:settle': ({ set, query, item, grade }) => session.rate({ set, query, item, grade, rater: ADJUDICATION_RATER }),
    'sets:rater': async () => {
      const chosen = prefs().rater
      return { name: chosen ?? osUserName(), chosen: chosen !== undefined }
    },
    // Computed in a worker thread: ~75 ms at 200,000 judgments, which the window's other calls would wait behind.
    'sets:agreement': async ({ set, raters, steps, settled }) => agreementOfSet(requireSet(await document(), set), { raters, steps, settled }),
    'sets:import': async ({ set, upload, format }) => {
      // The set first: a file is not read (nor a dialog shown) for a set that is not there.
      requireSet(await document(), set)
      const file = await chosenFileText(files, upload, JUDGMENTS_FILE)
      if (file === null) return null
      const { fileName, text } = file
      const chosen = format ?? judgmentFormatOf(fileName, text)
      if (chosen === null) {
        throw new ExplorerError('validation', `"${fileName}" is not a judgments file this app reads: give it a .csv (Quepid: query,docid,rating, or a column per rater), .qrels or .txt (TREC qrels) or .json (RRE ratings) name.`)
      }
      let counts = { queries: 0, judgments: 0, replaced: 0 }
      const workspace = await session.edit((current) => {
        // The file's grades are by the file (a rater of kind import), unless it names its raters (a Quepid book's columns).
        const parsed = parseJudgments(chosen, text, requireSet(current, set), fileName.slice(0, 200))
        if (!parsed.ok) throw new ExplorerError('validation', `"${fileName}" was not imported: ${parsed.message}`)
        counts = { queries: parsed.import.newQueries.length, judgments: parsed.import.judgments.length, replaced: parsed.import.replaced }
        return withImport(current, set, parsed.import)
      })
      return { workspace, fileName, ...counts }
    },
    'sets:export': async ({ set, format, grades }) => {
      const found = requireSet(await document(), set)
      // Made before a dialog asks where: a set this format cannot write (an item id with white space in qrels, a rater the set lacks) is refused first.
      const { text, judgments } = writeJudgments(format, found, grades)
      const suggested = judgmentFileName(format, found.name)
      const exported = EXPORTED[format]
      // Written by main to a file, as a TREC run is: the text never travels in a reply (200,000 judgments make ~10 MiB).
      if (files.dialogs) {
        const path = await files.dialogs.chooseSave({ title: 'Export judgments', defaultName: suggested, filters: [{ name: exported.filter, extensions: [exported.extension] }] })
        if (path === null) return null
        await writeFile(path, text).catch((error: NodeJS.ErrnoException) => {
          throw new ExplorerError('validation', `"${basename(path)}" could not be written (${error.code ?? error.message}); choose another folder or name.`)
        })
        return { fileName: basename(path), judgments, downloadUrl: null }
      }
      if (!downloads) throw new ExplorerError('validation', 'This window has neither a save dialog nor downloads to hand the file over.')
      await mkdir(exportsDir, { recursive: true })
      const path = join(exportsDir, `${randomUUID()}.${exported.extension}`)
      await writeFile(path, text, { mode: 0o600 })
      const ticket = downloads.issue({ path, fileName: suggested, contentType: exported.contentType })
      return { fileName: suggested, judgments, downloadUrl: `${DOWNLOAD_PATH}${ticket}` }
    },

    'eval:start': async ({ runId, set: name, target, depth, metrics, concurrency }) => {
      const context = await session.testContext()
      const inputs = setRunInputs(context, name, metrics)
      const side = setTarget(registry, context, inputs, target)
      const workspaceName = (await session.current()).workspace.name
      return runs.start({
        runId,
        set: name,
        targetText: side.label,
        total: inputs.set.queries.length,
        work: (signal, onQuery) =>
          evaluateSet({
            runner,
            target: side.target,
            targetSpec: target ?? null,
            targetText: side.label,
            overrides: side.overrides,
            workspaceName,
            set: inputs.set,
            template: inputs.template,
            metrics: inputs.metrics,
            settings: settingsOf(inputs.set),
            depth,
            concurrency,
            signal,
            runId: `eval:${runId}`,
            onQuery: (ranking) => onQuery(ranking.error !== null),
          }),
      })
    },
    'eval:status': async ({ runId }) => runs.status(runId),
    'eval:cancel': ({ runId }) => runs.cancel(runId),
    'eval:list': ({ set }) => store.list(set),
    'eval:get': ({ id }) => head(id),
    'eval:rankings': async ({ id, offset, limit }) => {
      const page = await store.page(id, offset, limit)
      if (!page) throw notKept(id)
      return page
    },
    'eval:ranking': async ({ id, query }) => {
      await summary(id)
      return store.ranking(id, query)
    },
    'eval:scored': async ({ id, settings }) => {
      const kept = await summary(id)
      const set = await setNamed(kept.set)
      const figures = set ? await store.score(id, set.judgments, set.scale, settings ?? settingsOf(set), set.raters) : null
      // The set is gone (renamed, deleted): the figures of the evaluation's own time.
      return figures ?? (await head(id)).scored
    },
    'eval:probability': async ({ id, threshold, share }) => {
      const kept = await summary(id)
      const set = await setNamed(kept.set)
      const figures = await store.probability(id, set ? gradesOfSet(set, kept.settings.aggregate) : new Map(), threshold, share)
      if (!figures) throw notKept(id)
      return figures
    },
    'eval:judge-next': async ({ id, limit }) => {
      const kept = await summary(id)
      const set = await setNamed(kept.set)
      if (!set) throw new ExplorerError('not_found', `The set "${kept.set.slice(0, 200)}" this evaluation ran on is no longer in the workspace: there are no judgments to weigh its figures with.`)
      // In a worker thread: 0.5–2 s at 1,000 queries, which the window's other calls would wait behind.
      return evaluationJudgeNext(store, id, set, limit)
    },
    'eval:delete': async ({ id }) => ({ deleted: await store.remove(id) }),
    'eval:run-file': async ({ id }) => {
      const kept = await summary(id)
      const suggested = runFileName(kept)
      let path: string
      if (files.dialogs) {
        const chosen = await files.dialogs.chooseSave({ title: 'Export TREC run', defaultName: suggested, filters: [{ name: 'TREC run', extensions: ['txt'] }] })
        if (chosen === null) return null
        path = chosen
      } else {
        await mkdir(exportsDir, { recursive: true })
        path = join(exportsDir, `${randomUUID()}.run.txt`)
      }
      // Written in the store's thread, a query at a time: main never holds the run's text.
      const written = await store.writeRunFile(id, path)
      if (!written) throw notKept(id)
      if (files.dialogs || !downloads) return { fileName: basename(path), queries: written.queries, downloadUrl: null }
      const ticket = downloads.issue({ path, fileName: suggested, contentType: 'text/plain; charset=utf-8' })
      return { fileName: suggested, queries: written.queries, downloadUrl: `${DOWNLOAD_PATH}${ticket}` }
    },
  }
}
