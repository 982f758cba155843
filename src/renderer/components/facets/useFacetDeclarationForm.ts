import { computed, nextTick, onMounted, ref } from 'vue'
import {
  FACET_FIELD_LABELS,
  facetDeclarationProblems,
  type FacetDeclaration,
  type FacetDeclarationField,
  type FacetSelectionKind,
} from '../../../shared/query/facet-declaration'
import { FILTER_PARAMETER, FILTER_SUFFIX } from '../../../shared/query/facets'
import { errorMessage } from '../../api/explorer-client'
import { useFacetsStore } from '../../stores/facets'

let forms = 0

export interface FacetDeclarationFormProps {
  /** The declared facet being edited, by its options endpoint; null for a new one. */
  editing: string | null
}

/**
 * "Declare a facet": the four facts the official client's
 * `FacetedSearch.addFacet` takes, its defaults filled in (filter = options
 * endpoint + `:FILTER` while the user has not typed another, parameter
 * `value`, one option at a time, reset when the search changes). A filter or
 * parameter left at its default is not written, so the file says only what
 * differs from the client's defaults.
 */
export function useFacetDeclarationForm(props: FacetDeclarationFormProps, done: () => void) {
  const facets = useFacetsStore()
  /** Ids for the labels and messages of this form's fields. */
  const id = `facet-form-${++forms}`
  const initial = props.editing === null ? null : facets.declarationOf(props.editing)

  const options = ref(initial?.options ?? '')
  /** null: follows the options endpoint (`<options>:FILTER`), as the client's default does. */
  const typedFilter = ref<string | null>(initial?.filter ?? null)
  const parameter = ref(initial?.parameter ?? FILTER_PARAMETER)
  const selection = ref<FacetSelectionKind>(initial?.selection ?? 'single')
  const reset = ref(initial?.resetOnSearchChange ?? true)

  const defaultFilter = computed(() => (options.value.trim() === '' ? '' : `${options.value.trim()}${FILTER_SUFFIX}`))
  const filter = computed(() => typedFilter.value ?? defaultFilter.value)
  const setFilter = (text: string) => {
    typedFilter.value = text === defaultFilter.value ? null : text
  }

  const problems = ref<Partial<Record<FacetDeclarationField, string>>>({})
  const failure = ref<string | null>(null)
  const saving = ref(false)
  const title = computed(() => (props.editing === null ? 'Declare a facet' : `Edit facet ${props.editing}`))
  const submitLabel = computed(() => (props.editing === null ? 'Declare facet' : 'Save facet'))

  function declaration(): FacetDeclaration {
    const name = options.value.trim()
    const filterName = filter.value.trim()
    const parameterName = parameter.value.trim()
    return {
      options: name,
      ...(filterName !== `${name}${FILTER_SUFFIX}` ? { filter: filterName } : {}),
      ...(parameterName !== FILTER_PARAMETER ? { parameter: parameterName } : {}),
      selection: selection.value,
      resetOnSearchChange: reset.value,
    }
  }

  /** The form's problems, each with its field's label and the rule: checked against the other declared facets too. */
  function check(next: FacetDeclaration): Partial<Record<FacetDeclarationField, string>> {
    const others = facets.declarations.filter((d) => d.options !== props.editing)
    const found: Partial<Record<FacetDeclarationField, string>> = {}
    if (next.options === '') found.options = `${FACET_FIELD_LABELS.options}: give the name of the endpoint that lists the facet's options.`
    for (const problem of facetDeclarationProblems([...others, next], others.length)) {
      found[problem.field] ??= `${FACET_FIELD_LABELS[problem.field]}: ${problem.message}.`
    }
    return found
  }

  const form = ref<HTMLFormElement | null>(null)
  // The form opens on what is to be answered first.
  onMounted(() => form.value?.querySelector<HTMLElement>('[data-field="options"]')?.focus())

  async function submit(): Promise<void> {
    failure.value = null
    const next = declaration()
    problems.value = check(next)
    const first = (['options', 'filter', 'parameter'] as const).find((field) => problems.value[field])
    if (first) {
      await nextTick()
      form.value?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus()
      return
    }
    saving.value = true
    try {
      await facets.declare(next, props.editing ?? undefined)
      done()
    } catch (e) {
      failure.value = `The facet was not declared: ${errorMessage(e)}`
    } finally {
      saving.value = false
    }
  }

  return { id, options, filter, setFilter, parameter, selection, reset, problems, failure, saving, title, submitLabel, form, submit }
}
