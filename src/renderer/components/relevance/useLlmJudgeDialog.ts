import { computed, ref } from 'vue'
import {
  DEFAULT_BASE_URLS, DEFAULT_JUDGE_CONCURRENCY, DEFAULT_JUDGE_DEPTH, DEFAULT_JUDGE_PROMPT, JUDGE_PROVIDER_LABELS, JUDGE_PROVIDERS, JudgeSchema,
  type Judge, type JudgeProvider,
} from '../../../shared/relevance/llm-judge'
import { attributeNames } from '../../../shared/results/table'
import { errorMessage } from '../../api/explorer-client'
import { useModalDialog } from '../../composables/useModalDialog'
import { useLlmJudgesStore } from '../../stores/llm-judges'
import { useQueryStore } from '../../stores/query'

/** The form's fields, by the judge's key: what a problem names. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name', provider: 'Provider', baseUrl: 'Base URL', model: 'Model', apiVersion: 'API version', temperature: 'Temperature', seed: 'Seed',
  fields: 'Item fields', maxFieldChars: 'Characters per field', fewShot: 'Few-shot examples', fewShotSeed: 'Few-shot seed', depth: 'Depth',
  concurrency: 'Concurrency', structured: 'Structured answers', prompt: 'Prompt template', notes: 'Notes',
}

/** What each placeholder of the prompt template becomes, said under it. */
export const PLACEHOLDER_TEXT = '{{scale}} the set\'s grades and labels · {{examples}} the few-shot examples (empty with none) · {{query}} the query\'s text · {{item}} the item\'s fields, one "name: value" a line'

type NumberInput = number | ''

/** A number box's value: '' (left empty) stays undefined, so the schema's default or its "required" says what it must be. */
const numberOf = (value: NumberInput | string): number | undefined => (value === '' || value === null ? undefined : Number(value))

/**
 * The "Add judge" / "Edit judge" dialog of LLM judges: every setting of a
 * judge (llm-judge.ts), checked by JudgeSchema before it goes, the problem
 * naming the field (which is marked invalid and described by it); what main
 * refuses shows in the dialog, which stays open. The item fields can be
 * picked from the attributes of the results in the grid, or typed.
 */
export function useLlmJudgeDialog(editing: Judge | null, done: () => void, cancel: () => void) {
  const { dialog, once } = useModalDialog()
  const judges = useLlmJudgesStore()
  const query = useQueryStore()

  const name = ref(editing?.name ?? '')
  const provider = ref<JudgeProvider>(editing?.provider ?? 'openai')
  const baseUrl = ref(editing?.baseUrl ?? '')
  const model = ref(editing?.model ?? '')
  const apiVersion = ref(editing?.apiVersion ?? '')
  const temperature = ref<NumberInput>(editing?.temperature ?? 0)
  const seed = ref<NumberInput>(editing?.seed ?? '')
  const fieldsText = ref((editing?.fields ?? []).join(', '))
  const maxFieldChars = ref<NumberInput>(editing?.maxFieldChars ?? 1_000)
  const fewShot = ref<NumberInput>(editing?.fewShot ?? 0)
  const fewShotSeed = ref<NumberInput>(editing?.fewShotSeed ?? 1)
  const depth = ref<NumberInput>(editing?.depth ?? DEFAULT_JUDGE_DEPTH)
  const concurrency = ref<NumberInput>(editing?.concurrency ?? DEFAULT_JUDGE_CONCURRENCY)
  const structured = ref(editing?.structured ?? true)
  const prompt = ref(editing?.prompt ?? DEFAULT_JUDGE_PROMPT)
  const notes = ref(editing?.notes ?? '')

  /** The field a problem is about (its key), and the problem in words. */
  const problemField = ref<string | null>(null)
  const problem = ref<string | null>(null)
  const busy = ref(false)

  const providers = JUDGE_PROVIDERS.map((value) => ({ value, label: JUDGE_PROVIDER_LABELS[value] }))
  const baseUrlPlaceholder = computed(() => DEFAULT_BASE_URLS[provider.value])
  const isAzure = computed(() => provider.value === 'azure-openai')
  const fields = computed(() => fieldsText.value.split(',').map((field) => field.trim()).filter(Boolean))
  /** The attributes of the results in the grid, to pick the item fields from (typing works the same). */
  const knownFields = computed(() => [...new Set([...attributeNames(query.items).values()].flat())].slice(0, 40))
  function toggleField(field: string, on: boolean): void {
    const list = fields.value.filter((each) => each !== field)
    fieldsText.value = (on ? [...list, field] : list).join(', ')
  }

  /** The judge as the form says, or a problem naming the field. */
  function judgeOf(): { ok: true; judge: Judge } | { ok: false; field: string; message: string } {
    // An empty base URL is the provider's own, except Azure's, which is the user's resource.
    const url = baseUrl.value.trim() || (isAzure.value ? '' : DEFAULT_BASE_URLS[provider.value])
    const input = {
      name: name.value.trim(),
      provider: provider.value,
      baseUrl: url,
      model: model.value.trim(),
      ...(isAzure.value && apiVersion.value.trim() ? { apiVersion: apiVersion.value.trim() } : {}),
      temperature: numberOf(temperature.value),
      ...(numberOf(seed.value) !== undefined ? { seed: numberOf(seed.value) } : {}),
      prompt: prompt.value,
      fields: fields.value,
      maxFieldChars: numberOf(maxFieldChars.value),
      ...(editing?.scale ? { scale: editing.scale } : {}),
      structured: structured.value,
      fewShot: numberOf(fewShot.value),
      fewShotSeed: numberOf(fewShotSeed.value),
      depth: numberOf(depth.value),
      concurrency: numberOf(concurrency.value),
      ...(notes.value.trim() ? { notes: notes.value } : {}),
    }
    if (!input.name) return { ok: false, field: 'name', message: 'give the judge a name (its grades go under llm:<name>)' }
    if (!input.baseUrl) return { ok: false, field: 'baseUrl', message: 'give your Azure OpenAI resource\'s endpoint, e.g. https://my-resource.openai.azure.com' }
    if (!input.model) return { ok: false, field: 'model', message: isAzure.value ? "give the deployment's name" : "give the model's name, e.g. gpt-4o-mini (or demo-judge on the demo)" }
    const parsed = JudgeSchema.safeParse(input)
    if (parsed.success) return { ok: true, judge: parsed.data }
    const issue = parsed.error.issues[0]!
    const field = String(issue.path[0] ?? 'name')
    return { ok: false, field, message: issueText(issue) }
  }

  async function submit(): Promise<void> {
    if (busy.value) return
    const built = judgeOf()
    if (!built.ok) {
      problemField.value = built.field
      problem.value = `${FIELD_LABELS[built.field] ?? built.field}: ${built.message}.`
      return
    }
    busy.value = true
    problemField.value = null
    problem.value = null
    try {
      await judges.save(built.judge, editing?.name)
      once(done)
    } catch (e) {
      problem.value = errorMessage(e)
    } finally {
      busy.value = false
    }
  }

  /** A field's problem, when the problem is about it: for its aria-invalid and description. */
  const problemOf = (field: string): string | null => (problemField.value === field ? problem.value : null)

  return {
    dialog, name, provider, providers, baseUrl, baseUrlPlaceholder, model, isAzure, apiVersion, temperature, seed, fieldsText, fields, knownFields, toggleField,
    maxFieldChars, fewShot, fewShotSeed, depth, concurrency, structured, prompt, notes, problem, problemOf, busy, submit,
    placeholderText: PLACEHOLDER_TEXT, dismiss: () => once(cancel),
  }
}

/** A schema issue in words a person reads after the field's name: the bounds said plainly where zod's would be terse. */
function issueText(issue: { code: string; message: string; minimum?: unknown; maximum?: unknown; expected?: unknown; origin?: unknown }): string {
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' of them' : ''
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'a whole number'
  // The form sends a number or nothing: any other wrong type is a box left empty.
  if (issue.code === 'invalid_type') return 'required'
  if (issue.code === 'too_small' && (typeof issue.minimum === 'number' || typeof issue.minimum === 'bigint')) return `at least ${issue.minimum.toLocaleString('en-US')}${unit}`
  if (issue.code === 'too_big' && (typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint')) return `at most ${issue.maximum.toLocaleString('en-US')}${unit}`
  return issue.message
}
