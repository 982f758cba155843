import { computed, nextTick, ref, type Ref } from 'vue'
import type { EndpointDescription, EndpointKind } from '../../../shared/api-description'
import { describedParameters, isEmptyStep, type EditorStep } from '../../../shared/chain/editor-chain'
import { inputKind, parameterHint, type ParameterInputKind } from '../../../shared/chain/parameter-input'
import { isEndpointStep, type EndpointStep, type Step } from '../../../shared/query/model'
import type { Problem } from '../../../shared/query/validate'
import type { NameValueRowView } from '../controls/name-value-row'

export interface StepCardProps {
  index: number
  entry: EditorStep
  /** Endpoints allowed at this place in the chain; empty when the API has no description. */
  endpoints: EndpointDescription[]
  /** Endpoint names this connection's API was used with (saved queries, History): offered too, typed or not described. */
  usedEndpoints?: readonly string[]
  /** How many cards the chain has, for the move buttons. */
  total: number
  /** Validation problems of this card (fields `steps[index]…`). */
  problems: Problem[]
}

/** What a card tells the chain editor. */
export interface StepCardEvents {
  update: (step: Step) => void
  move: (to: number) => void
}

export interface ParameterField {
  name: string
  id: string
  kind: ParameterInputKind
  value: string
  hint: string | null
  description: string | null
  required: boolean
  /** The problem validation found with it, or a hint that the value does not fit its type. */
  message: string | null
}

const KIND_LABELS: Record<EndpointKind, string> = {
  search: 'search',
  filter: 'filter',
  modifier: 'modifier',
  'facet-options': 'facet options',
  'facet-filter': 'facet filter',
  item: 'item',
  list: 'list',
}

/** One card's logic: the endpoint picker, a field per parameter, context pairs and the card's own buttons. */
export function useStepCard(props: StepCardProps, on: StepCardEvents) {
  const isEndpoint = computed(() => isEndpointStep(props.entry.step))
  const step = computed(() => props.entry.step)
  const endpointStep = computed<EndpointStep | null>(() => (isEndpointStep(step.value) ? step.value : null))
  const cardId = computed(() => `step-${props.entry.id}`)
  const title = computed(() => `Step ${props.index + 1}`)
  /** Switched on but empty: left out of the URL, and named by Run. */
  const emptyNote = computed(() => {
    if (!props.entry.enabled || !isEmptyStep(step.value)) return null
    return isEndpointStep(step.value) ? 'Empty: not in the URL until it has an endpoint.' : 'Empty: not in the URL until a parameter is named.'
  })

  /** What the Endpoint box offers: the described endpoints allowed here, then names used before that the description does not list. */
  const suggestions = computed(() => {
    const described = props.endpoints.map((e) => ({ name: e.name, note: e.kind as string }))
    const known = new Set(described.map((e) => e.name))
    const used = (props.usedEndpoints ?? []).filter((name) => !known.has(name)).map((name) => ({ name, note: 'used before' }))
    return [...described, ...used]
  })

  const described = computed(() => props.endpoints.find((e) => e.name === endpointStep.value?.endpoint) ?? null)
  const kindLabel = computed(() => (described.value ? KIND_LABELS[described.value.kind] : isEndpoint.value ? null : 'context'))
  /** The chip's tooltip: what kind of step this is, in words, should a very narrow column still cut the chip. */
  const kindTitle = computed(() => (kindLabel.value === null ? undefined : kindLabel.value === 'context' ? 'A context step' : `A ${kindLabel.value} step`))
  const problemOf = (suffix: string) => props.problems.find((p) => p.field === `steps[${props.index}]${suffix}`)?.message ?? null
  const endpointProblem = computed(() => {
    const own = problemOf('.endpoint')
    if (own) return own
    const name = endpointStep.value?.endpoint ?? ''
    // Typed names are allowed (an endpoint may exist that the description omits), but flagged once typed.
    if (props.endpoints.length > 0 && name !== '' && !described.value && !typing.value) return `"${name}" is not an endpoint this API offers at this place`
    return null
  })
  const stepProblem = computed(() => problemOf(''))

  const parameters = computed<ParameterField[]>(() => {
    const current = endpointStep.value
    if (!current) return []
    const names = described.value?.parameters.map((p) => p.name) ?? Object.keys(current.parameters)
    return names.map((name) => {
      const info = described.value?.parameters.find((p) => p.name === name)
      const kind = inputKind(info?.type)
      const value = current.parameters[name] ?? ''
      return {
        name,
        id: `${cardId.value}-p-${name}`,
        kind,
        value,
        hint: parameterHint(name, kind, value),
        description: info?.description ?? null,
        required: info?.required ?? false,
        message: problemOf(`.parameters.${name}`),
      }
    })
  })

  // The endpoint is committed as it is typed: Ctrl+Enter runs what the box shows, and the API's default
  // endpoint, filled in when the description arrives, never overwrites typing. Parameters come from those the
  // step had when typing began, so passing through other endpoints' names on the way loses no value.
  let typedFrom: Record<string, string> | null = null
  const typing = ref(false)
  function typeEndpoint(text: string): void {
    const current = endpointStep.value
    if (!current) return
    typedFrom ??= { ...current.parameters }
    typing.value = true
    setEndpoint(text.trim(), typedFrom)
  }
  function finishEndpoint(text: string): void {
    setEndpoint(text.trim(), typedFrom ?? undefined)
    typedFrom = null
    typing.value = false
  }

  /**
   * Parameters follow their endpoint: another endpoint the API describes gets
   * its own parameters (keeping the values of those of the same name), and a
   * cleared box drops them all, so an empty step holds nothing that could
   * reach a URL. A name the API does not describe (or an API without a
   * description) keeps the parameters typed: fixing a typo loses nothing.
   */
  function setEndpoint(name: string, base = endpointStep.value?.parameters ?? {}): void {
    const current = endpointStep.value
    if (!current) return
    const next = props.endpoints.find((e) => e.name === name)
    const parameters = name === '' ? {} : next ? describedParameters(next, base) : { ...base }
    if (name === current.endpoint && sameParameters(parameters, current.parameters)) return
    on.update({ endpoint: name, parameters })
  }

  function setParameter(name: string, value: string): void {
    const current = endpointStep.value
    if (current) on.update({ ...current, parameters: { ...current.parameters, [name]: value } })
  }

  function removeParameter(name: string): void {
    const current = endpointStep.value
    if (!current) return
    on.update({ ...current, parameters: Object.fromEntries(Object.entries(current.parameters).filter(([key]) => key !== name)) })
  }

  const newParameter = ref('')
  function addParameter(): void {
    const name = newParameter.value.trim()
    if (name === '' || (endpointStep.value && name in endpointStep.value.parameters)) return
    setParameter(name, '')
    newParameter.value = ''
  }

  // Context pairs, in order; a card is keyed by position so typing a name keeps the focus.
  const pairs = computed(() => (isEndpointStep(step.value) ? [] : Object.entries(step.value.context)))
  function writePairs(next: [string, string][]): void {
    const context: Record<string, string> = {}
    for (const [name, value] of next) if (!(name in context)) context[name] = value
    on.update({ context })
  }
  const setPairName = (i: number, name: string) => writePairs(pairs.value.map(([n, v], k) => (k === i ? [name, v] : [n, v])))
  const setPairValue = (i: number, value: string) => writePairs(pairs.value.map(([n, v], k) => (k === i ? [n, value] : [n, v])))
  const addPair = () => {
    if (!pairs.value.some(([name]) => name === '')) writePairs([...pairs.value, ['', '']])
  }
  const removePair = (i: number) => writePairs(pairs.value.filter((_, k) => k !== i))
  const pairProblem = (name: string) => problemOf(`.context.${name}`)
  /** The pairs as their rows show them: a value's box is named after its parameter once that has a name. */
  const pairRows = computed(() =>
    pairs.value.map(([name, value], i): NameValueRowView => ({
      name,
      value,
      nameLabel: `Name of context parameter ${i + 1}`,
      valueLabel: name || `Value of context parameter ${i + 1}`,
      removeLabel: `Remove context parameter ${name || i + 1}`,
      problem: pairProblem(name),
    })),
  )

  // Moving a card re-inserts it in the page, which drops the focus: put it back on the button pressed.
  const upButton: Ref<HTMLButtonElement | null> = ref(null)
  const downButton: Ref<HTMLButtonElement | null> = ref(null)
  async function move(delta: -1 | 1): Promise<void> {
    const to = props.index + delta
    if (to < 0 || to >= props.total) return
    on.move(to)
    await nextTick()
    const wanted = delta < 0 ? upButton.value : downButton.value
    const other = delta < 0 ? downButton.value : upButton.value
    ;(wanted && !wanted.disabled ? wanted : other)?.focus()
  }

  return {
    isEndpoint, endpointStep, cardId, title, emptyNote, suggestions, described, kindLabel, kindTitle, endpointProblem, stepProblem, parameters,
    typeEndpoint, finishEndpoint, setParameter, removeParameter, newParameter, addParameter,
    pairs, pairRows, setPairName, setPairValue, addPair, removePair, pairProblem,
    upButton, downButton, move,
  }
}

function sameParameters(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const names = Object.keys(a)
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && a[name] === b[name])
}
