import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { RunTarget } from '../../shared/compare/compare-targets'
import type { SetForm } from '../../shared/ipc/contract'
import type { QueryRequest } from '../../shared/query/model'
import type { JudgmentFormat, JudgmentGrades } from '../../shared/relevance/judgment-files'
import { gradesOfRater } from '../../shared/relevance/grade-aggregate'
import { scaleOf, settingsOf, type Judgment, type QuerySet, type ScaleStep } from '../../shared/relevance/query-set'
import { ADJUDICATION_RATER } from '../../shared/relevance/raters'
import { fillTemplate, resolveTemplate } from '../../shared/relevance/set-template'
import { call, errorMessage } from '../api/explorer-client'
import { uploadFile } from '../api/uploads'
import { openDownload } from '../files/offer-download'
import { useChainStore } from './chain'
import { useConnectionsStore } from './connections'
import { useQueryStore } from './query'
import { useToastsStore } from './toasts'
import { useWorkbenchStore } from './workbench'
import { useWorkspaceStore } from './workspace'

/**
 * The open workspace's query sets as the Evaluation view and the grid use
 * them: the set chosen, whole (queries and judgments, `sets:get`), and the
 * query being rated in the grid. Main owns the document: each edit replies
 * the workspace view, which goes to the workspace store (its unsaved marker
 * follows), and a rating shows here at once and is undone if main refuses it.
 */
export const useQuerySetsStore = defineStore('query-sets', () => {
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const query = useQueryStore()
  const workbench = useWorkbenchStore()
  const toasts = useToastsStore()

  const summaries = computed(() => workspace.view?.sets ?? [])
  /** The set chosen in the Evaluation view, by name. */
  const chosen = ref<string | null>(null)
  /** The chosen set whole, as main last gave it (plus ratings made since). */
  const set = shallowRef<QuerySet | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** The query whose results the grid rates (its Rating column), by id; null: the grid shows no ratings. */
  const ratingQuery = ref<string | null>(null)
  /** Where the rated ranking was run, in words ("Demo, config default"), when it was opened from a kept evaluation. */
  const ratingTarget = ref<string | null>(null)
  /**
   * The item to mark in the grid (its key, as itemKey gives it) and the query
   * it belongs to: a disagreement's Open. A new object each Open, so the grid
   * brings it into view once per Open, not again on each later run.
   */
  const marked = shallowRef<{ query: string; item: string } | null>(null)
  /** The marked item's key while its query is the one rated (any way rating stops or moves on unmarks it). */
  const markedItem = computed(() => (marked.value !== null && marked.value.query === ratingQuery.value ? marked.value.item : null))

  const scale = computed(() => (set.value ? scaleOf(set.value) : []))
  const settings = computed(() => (set.value ? settingsOf(set.value) : null))
  /** Who this window rates as (`sets:rater`): the name the person gave (`chosen`), else the OS user name until they give one. */
  const rater = ref<{ name: string; chosen: boolean } | null>(null)
  /** This window's rater's own grades, by query then item: what Judge walks past and the grid's Rating column shows. */
  const grades = computed(() => (rater.value ? gradesOfRater(set.value?.judgments ?? [], rater.value.name) : new Map<string, Map<string, number>>()))
  const ratedQuery = computed(() => set.value?.queries.find((entry) => entry.id === ratingQuery.value) ?? null)
  /** The grid's ratings: the rated query's grades by item id. */
  const ratingGrades = computed<ReadonlyMap<string, number>>(() => (ratingQuery.value ? (grades.value.get(ratingQuery.value) ?? new Map()) : new Map()))

  /** Loads the set called `name` (null: none), keeping the rated query when it is still in it. */
  async function choose(name: string | null): Promise<void> {
    chosen.value = name
    error.value = null
    if (name === null) {
      set.value = null
      ratingQuery.value = null
      return
    }
    loading.value = true
    try {
      const loaded = await call('sets:get', { name })
      if (chosen.value !== name) return
      set.value = loaded
      if (!loaded.queries.some((entry) => entry.id === ratingQuery.value)) ratingQuery.value = null
    } catch (e) {
      if (chosen.value === name) error.value = errorMessage(e)
    } finally {
      loading.value = false
    }
  }

  // The view lists the sets: the one chosen follows a rename or goes with a deleted one; with none chosen, the first.
  watch(
    summaries,
    (list) => {
      const names = list.map((entry) => entry.name)
      if (chosen.value === null || !names.includes(chosen.value)) void choose(names[0] ?? null)
    },
    { immediate: true },
  )
  watch(
    () => workspace.openings,
    () => {
      ratingQuery.value = null
      void choose(summaries.value[0]?.name ?? null)
    },
  )

  async function save(form: SetForm, previousName?: string): Promise<void> {
    workspace.show(await call('sets:save', { set: form, ...(previousName !== undefined ? { previousName } : {}) }))
    await choose(form.name)
  }

  async function remove(name: string): Promise<void> {
    workspace.show(await call('sets:delete', { name }))
  }

  // Whose grades the grid and Judge show is asked once a set is there to rate.
  watch(set, (value) => {
    if (value && !rater.value) void loadRater()
  })

  /** Who the window rates as, from main (the preference, else the OS user name). */
  async function loadRater(): Promise<void> {
    try {
      rater.value = await call('sets:rater', {})
    } catch (e) {
      toasts.show(`Who you rate as could not be read: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  /** Keeps the person's name as a rater in the preferences: their next ratings go under it (those made before keep theirs). */
  async function setRater(name: string): Promise<void> {
    await call('view-prefs:set', { rater: name })
    // Main rates under it from now on: so does this window, before any other rating can go out.
    rater.value = { name, chosen: true }
  }

  /**
   * Rates an item of a query of the chosen set as this window's rater (null
   * clears that rater's grade); shown at once, undone with a message if main
   * refuses. `as` 'adjudication' settles the item (`sets:settle`) instead.
   */
  async function rate(queryId: string, item: string, grade: number | null, as: 'rater' | 'adjudication' = 'rater'): Promise<void> {
    if (as === 'rater' && !rater.value) await loadRater()
    // Read after the wait: a rating made meanwhile is in the set this one builds on.
    const current = set.value
    if (!current) return
    const name = as === 'adjudication' ? ADJUDICATION_RATER : rater.value?.name
    if (name === undefined) return
    const mine = (judgment: Judgment) => judgment.query === queryId && judgment.item === item && judgment.rater === name
    const others = current.judgments.filter((judgment) => !mine(judgment))
    set.value = { ...current, judgments: grade === null ? others : [...others, { query: queryId, item, rater: name, grade }] }
    try {
      workspace.show(await call(as === 'adjudication' ? 'sets:settle' : 'sets:rate', { set: current.name, query: queryId, item, grade }))
    } catch (e) {
      // Only this rating is undone: ratings made meanwhile stay.
      const now = set.value
      if (now) {
        const rest = now.judgments.filter((judgment) => !mine(judgment))
        const before = current.judgments.find(mine)
        set.value = { ...now, judgments: before ? [...rest, before] : rest }
      }
      toasts.show(`The rating was not saved: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  /** The grid's key on its active row: a grade of the scale rates it, null clears. */
  function rateInGrid(item: string, grade: number | null): boolean {
    if (!ratingQuery.value || !set.value) return false
    if (grade !== null && !scale.value.some((step) => step.grade === grade)) return false
    void rate(ratingQuery.value, item, grade)
    return true
  }

  /**
   * Imports a judgments file into the chosen set: `file`, the one Chromium's
   * picker gave the browser-host page (sent to the host in parts first), or
   * with none the one Electron's open dialog picks in main. The note to show;
   * null when the dialog was cancelled.
   */
  async function importFile(file?: File): Promise<string | null> {
    const current = set.value
    if (!current) throw new Error('Choose a query set first.')
    const upload = file ? await uploadFile(file, 'judgments') : undefined
    const reply = await call('sets:import', { set: current.name, ...(upload !== undefined ? { upload } : {}) })
    if (!reply) return null
    workspace.show(reply.workspace)
    await choose(current.name)
    const added = reply.queries > 0 ? `, ${reply.queries} new ${reply.queries === 1 ? 'query' : 'queries'}` : ''
    const replaced = reply.replaced > 0 ? ` (${reply.replaced} replaced a different grade)` : ''
    return `Imported ${reply.judgments} judgment${reply.judgments === 1 ? '' : 's'}${added} from ${reply.fileName}${replaced}.`
  }

  /** Main writes the file (where Electron's save dialog says, or as a one-time download in the browser host); null: cancelled. */
  async function exportJudgments(format: JudgmentFormat, grades?: JudgmentGrades): Promise<{ fileName: string; judgments: number } | null> {
    const current = set.value
    if (!current) return null
    const reply = await call('sets:export', { set: current.name, format, ...(grades ? { grades } : {}) })
    if (reply?.downloadUrl) openDownload(reply.downloadUrl, reply.fileName)
    return reply
  }

  /**
   * Puts one query of the set in the editor (the template filled with its
   * text) on `target` (else the template's own connection), without running
   * it; false, with a message, when it cannot.
   */
  async function loadInEditor(queryId: string, target?: RunTarget): Promise<boolean> {
    const current = set.value
    const entry = current?.queries.find((each) => each.id === queryId)
    if (!current || !entry) return false
    const template = resolveTemplate({ queries: workspace.queries }, current)
    if (template.error !== null || template.request === null) {
      toasts.show(template.error ?? 'The set has no template.', { tone: 'danger' })
      return false
    }
    const bound = workspace.view?.bindings.find((binding) => binding.fileConnectionId === template.connection)?.connectionId ?? null
    const connectionId = target?.connectionId ?? bound
    if (connectionId === null) {
      toasts.show("The set's template runs on a connection of the workspace that is not connected yet: connect it in Saved queries, or choose a connection to evaluate on.", { tone: 'danger' })
      return false
    }
    if (connectionId !== connections.selectedId) await connections.select(connectionId)
    await editor.loadRequest(onTarget(fillTemplate(template.request, entry.text), target))
    workspace.savedQuery = null
    return true
  }

  /**
   * One query of the set in the editor, run, in the Results view, rated there.
   * `ranOn` says where the target ran, for the banner: Open from an
   * evaluation rates the ranking whose figures the user read. `mark` (an
   * item's key) is marked in the answer's rows: a disagreement's Open.
   */
  async function openInGrid(queryId: string, target?: RunTarget, ranOn?: string, mark?: string): Promise<void> {
    if (!(await loadInEditor(queryId, target))) return
    ratingQuery.value = queryId
    ratingTarget.value = ranOn ?? null
    marked.value = mark === undefined ? null : { query: queryId, item: mark }
    workbench.select('results')
    await query.run(0)
  }

  function stopRating(): void {
    ratingQuery.value = null
    ratingTarget.value = null
    marked.value = null
  }

  /** A grade as words: "3 Perfect". */
  function gradeText(grade: number): string {
    const step = scale.value.find((each: ScaleStep) => each.grade === grade)
    return step ? `${grade} ${step.label}` : String(grade)
  }

  return {
    summaries, chosen, set, loading, error, ratingQuery, ratingTarget, marked, markedItem, ratedQuery, scale, settings, rater, grades, ratingGrades,
    choose, save, remove, loadRater, setRater, rate, rateInGrid, importFile, exportJudgments, loadInEditor, openInGrid, stopRating, gradeText,
  }
})

/** The filled template as `target` runs it: its API, version and configuration where the target names them. */
function onTarget(request: QueryRequest, target: RunTarget | undefined): QueryRequest {
  if (!target) return request
  return {
    ...request,
    ...(target.api ? { api: target.api } : {}),
    ...(target.version ? { version: target.version } : {}),
    options: { ...request.options, ...(target.config ? { config: target.config } : {}) },
  }
}
