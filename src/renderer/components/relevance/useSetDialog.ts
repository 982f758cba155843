import { computed, ref } from 'vue'
import type { SetForm } from '../../../shared/ipc/contract'
import { aggregateChoices } from '../../../shared/relevance/grade-aggregate'
import { ratersOf } from '../../../shared/relevance/raters'
import { DEFAULT_SCALE, DEFAULT_SETTINGS, QUERY_PLACEHOLDER, scaleText, type MetricSettings, type QuerySet } from '../../../shared/relevance/query-set'
import { parseScaleText } from '../../../shared/relevance/scale-text'
import { queriesFromLines } from '../../../shared/relevance/set-edits'
import { holdsPlaceholder } from '../../../shared/relevance/set-template'
import { errorMessage } from '../../api/explorer-client'
import { useModalDialog } from '../../composables/useModalDialog'
import { useConnectionsStore } from '../../stores/connections'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useWorkspaceStore } from '../../stores/workspace'

/** The template choice that stands for the editor's query (no saved query has an empty name). */
export const EDITOR_TEMPLATE = ''

/**
 * The "New query set" / "Edit query set" dialog: a name, the template (a
 * saved query holding {{query}}, or the editor's query), the queries one a
 * line, the scale and how the metrics read it. What main refuses shows in
 * the dialog, which stays open.
 */
export function useSetDialog(editing: QuerySet | null, done: () => void, cancel: () => void) {
  const { dialog, once } = useModalDialog()
  const sets = useQuerySetsStore()
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()

  const templates = computed(() => workspace.queries.filter((query) => holdsPlaceholder(query.request)).map((query) => query.name))
  const editorHolds = computed(() => holdsPlaceholder(workspace.editorRequest))
  const editorLabel = computed(() => `The editor's query${editorHolds.value ? '' : ` (holds no ${QUERY_PLACEHOLDER} yet)`}`)
  const name = ref(editing?.name ?? '')
  const template = ref(editing?.query ?? (editing?.request ? EDITOR_TEMPLATE : (templates.value[0] ?? EDITOR_TEMPLATE)))
  const queriesText = ref(editing?.queries.map((query) => query.text).join('\n') ?? '')
  const scaleInput = ref(scaleText(editing?.scale ?? DEFAULT_SCALE))
  const settings = ref<MetricSettings>({ ...DEFAULT_SETTINGS, ...editing?.settings })
  /** Which grade the metrics use where several raters graded an item: the rules, then each of the set's raters alone. */
  const aggregates = computed(() => aggregateChoices(editing ? ratersOf(editing) : []))
  const notes = ref(editing?.notes ?? '')
  const problem = ref<string | null>(null)
  const busy = ref(false)
  const queryCount = computed(() => queriesFromLines(queriesText.value.split('\n'), []).length)

  function form(): SetForm | string {
    if (!name.value.trim()) return 'Name: give the query set a name.'
    const scale = parseScaleText(scaleInput.value)
    if (!scale.ok) return `Scale: ${scale.message}.`
    const top = scale.scale[scale.scale.length - 1]!.grade
    if (!Number.isInteger(settings.value.threshold) || settings.value.threshold < 0 || settings.value.threshold > top) {
      return `Relevant from grade: a whole number from 0 to ${top}, the scale's highest grade.`
    }
    let chosen: SetForm['template']
    if (template.value === EDITOR_TEMPLATE) {
      // A set made earlier from the editor keeps its own request unless the editor holds a new template.
      if (!editorHolds.value && editing?.request) return "Template: the editor's query holds no {{query}} now; choose a saved query, or put {{query}} in a parameter of the editor's query."
      if (!editorHolds.value) return `Template: the editor's query holds no ${QUERY_PLACEHOLDER}. Type ${QUERY_PLACEHOLDER} where each query's text goes (the search step's query), or choose a saved query that holds it.`
      if (!connections.selectedId) return 'Template: choose a connection for the editor first.'
      chosen = { kind: 'editor', connectionId: connections.selectedId, request: workspace.editorRequest }
    } else {
      chosen = { kind: 'saved', query: template.value }
    }
    const queries = queriesFromLines(queriesText.value.split('\n'), editing?.queries ?? [])
    const isDefault = scaleText(scale.scale) === scaleText(DEFAULT_SCALE)
    return {
      name: name.value.trim(),
      template: chosen,
      ...(notes.value.trim() ? { notes: notes.value } : {}),
      ...(isDefault ? {} : { scale: scale.scale }),
      settings: settings.value,
      queries,
    }
  }

  async function submit(): Promise<void> {
    if (busy.value) return
    const built = form()
    if (typeof built === 'string') {
      problem.value = built
      return
    }
    busy.value = true
    problem.value = null
    try {
      await sets.save(built, editing?.name)
      once(done)
    } catch (e) {
      problem.value = errorMessage(e)
    } finally {
      busy.value = false
    }
  }

  return { dialog, name, template, templates, editorLabel, queriesText, queryCount, scaleInput, settings, aggregates, notes, problem, busy, submit, dismiss: () => once(cancel), EDITOR_TEMPLATE }
}
