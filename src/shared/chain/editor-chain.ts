import type { ApiDescription, EndpointDescription } from '../api-description'
import { facetFilterChain, facetFilterName, type FacetRef, type FacetSelection } from '../query/facets'
import { isEndpointStep, type Step } from '../query/model'
import type { Problem } from '../query/validate'

/**
 * The chain as the editor holds it: the model's steps, each with a stable id
 * (so cards keep their focus and inputs while they move) and an on/off
 * switch (a step switched off stays in the editor but is not sent). Pure
 * functions; every one returns a new list and never changes its input.
 */

export interface EditorStep {
  id: string
  enabled: boolean
  step: Step
}

export type NewId = () => string

export function editorSteps(steps: readonly Step[], newId: NewId): EditorStep[] {
  return steps.map((step) => ({ id: newId(), enabled: true, step }))
}

/**
 * A step with nothing in it yet: an endpoint step whose name is blank (a card
 * just added, or a name cleared), or a context step whose pairs are all
 * blank. It is left out of the URL and of every request built from the
 * editor (an empty segment `/e//` is no request, and the facet lists would
 * read as failing), and Run names it (emptyStepProblems).
 */
export function isEmptyStep(step: Step): boolean {
  if (isEndpointStep(step)) return step.endpoint.trim() === ''
  return Object.entries(step.context).every(([name, value]) => name.trim() === '' && value === '')
}

/** The steps that are sent: those switched on and not empty, in order. */
export function sentSteps(chain: readonly EditorStep[]): Step[] {
  return chain.filter(isSent).map((entry) => entry.step)
}

function isSent(entry: EditorStep): boolean {
  return entry.enabled && !isEmptyStep(entry.step)
}

/** For each sent step, the position of its card in the editor. */
export function sentPositions(chain: readonly EditorStep[]): number[] {
  const positions: number[] = []
  chain.forEach((entry, index) => {
    if (isSent(entry)) positions.push(index)
  })
  return positions
}

/**
 * What Run says of each empty card that is switched on: it is not in the URL,
 * so the request would not be what the editor shows; the user fills it in,
 * switches it off or removes it. Numbered as the cards are.
 */
export function emptyStepProblems(chain: readonly EditorStep[]): Problem[] {
  const problems: Problem[] = []
  chain.forEach((entry, index) => {
    if (!entry.enabled || !isEmptyStep(entry.step)) return
    const endpoint = isEndpointStep(entry.step)
    problems.push({
      field: endpoint ? `steps[${index}].endpoint` : `steps[${index}]`,
      message: endpoint
        ? `Step ${index + 1} is empty: choose its endpoint, or remove the step`
        : `Step ${index + 1} is empty: name a context parameter and its value, or remove the step`,
    })
  })
  return problems
}

export function moveStep(chain: readonly EditorStep[], from: number, to: number): EditorStep[] {
  if (from === to || from < 0 || from >= chain.length || to < 0 || to >= chain.length) return [...chain]
  const out = [...chain]
  const [moved] = out.splice(from, 1)
  out.splice(to, 0, moved!)
  return out
}

/**
 * Endpoints the description allows at a card's place: any endpoint for the
 * first endpoint step that is sent, stackable ones after it (the service
 * refuses a non-stackable endpoint stacked on another).
 */
export function allowedEndpoints(description: ApiDescription | null, chain: readonly EditorStep[], index: number): EndpointDescription[] {
  const all = description?.endpoints ?? []
  const firstEndpoint = chain.findIndex((entry) => isSent(entry) && isEndpointStep(entry.step))
  const isFirst = firstEndpoint === -1 || firstEndpoint >= index
  return isFirst ? all : all.filter((endpoint) => endpoint.stackable)
}

/**
 * The problems as the editor shows them. Validation numbers steps as they
 * are sent; the editor shows switched-off and empty cards too, so "Step 2" in
 * a message would name the wrong card: the field path and the leading
 * "Step n" are rewritten to the card's own number. Each empty card that is
 * switched on is named too (it is not sent), in card order; it stands for
 * "the request needs an endpoint step" when it is the only one.
 */
export function problemsForEditor(problems: readonly Problem[], chain: readonly EditorStep[]): Problem[] {
  const positions = sentPositions(chain)
  const empty = emptyStepProblems(chain)
  const renumbered = problems.flatMap((problem): Problem[] => {
    const match = /^steps\[(\d+)\]/.exec(problem.field)
    if (!match) return problem.field === 'steps' && empty.some((each) => each.field.endsWith('.endpoint')) ? [] : [problem]
    const sent = Number(match[1])
    const card = positions[sent]
    if (card === undefined || card === sent) return [problem]
    return [{
      field: problem.field.replace(/^steps\[\d+\]/, `steps[${card}]`),
      message: problem.message.replace(new RegExp(`^Step ${sent + 1}\\b`), `Step ${card + 1}`),
    }]
  })
  if (empty.length === 0) return renumbered
  const cardOf = (problem: Problem) => Number(/^steps\[(\d+)\]/.exec(problem.field)?.[1] ?? Number.POSITIVE_INFINITY)
  return [...empty, ...renumbered].sort((a, b) => cardOf(a) - cardOf(b))
}

/** The problems of one card: those whose field is `steps[index]…`. */
export function problemsOfStep(problems: readonly Problem[], index: number): Problem[] {
  const prefix = `steps[${index}]`
  return problems.filter((problem) => problem.field === prefix || problem.field.startsWith(`${prefix}.`))
}

/**
 * Writes a facet selection into the chain through the codec's
 * facetFilterChain, keeping every other card (id and switch) as it was. The
 * filter card that is replaced keeps its id, so its place and focus stay.
 */
export function withFacetSelection(
  chain: readonly EditorStep[],
  facet: FacetRef,
  selected: readonly FacetSelection[],
  newId: NewId,
): EditorStep[] {
  const byStep = new Map<Step, EditorStep>(chain.map((entry) => [entry.step, entry]))
  const filterName = facetFilterName(facet)
  const replaced = chain.find((entry) => isEndpointStep(entry.step) && entry.step.endpoint === filterName)
  const steps = facetFilterChain(
    chain.map((entry) => entry.step),
    facet,
    selected,
  )
  return steps.map((step) => byStep.get(step) ?? { id: replaced?.id ?? newId(), enabled: true, step })
}

/**
 * Leaves out parameters the description calls optional that the user left
 * empty (population's `max` when only `min` is wanted): the service cannot
 * receive an empty value, and an absent optional parameter is what the user
 * means. Required or undescribed parameters stay, empty or not, so that
 * validation names them.
 */
export function withoutEmptyOptional(steps: readonly Step[], description: ApiDescription | null): Step[] {
  if (!description) return [...steps]
  const byName = new Map(description.endpoints.map((endpoint) => [endpoint.name, endpoint]))
  return steps.map((step) => {
    if (!isEndpointStep(step)) return step
    const endpoint = byName.get(step.endpoint)
    if (!endpoint) return step
    const optional = new Set(endpoint.parameters.filter((p) => !p.required).map((p) => p.name))
    const entries = Object.entries(step.parameters)
    if (!entries.some(([name, value]) => value === '' && optional.has(name))) return step
    return { ...step, parameters: Object.fromEntries(entries.filter(([name, value]) => !(value === '' && optional.has(name)))) }
  })
}

/**
 * The chain with each endpoint step's parameters as its endpoint's
 * description has them, for when the description arrives after the user
 * typed an endpoint name: every described parameter (with the value already
 * there, or empty), and any other one only if the user filled it in (a
 * description may leave out a parameter the server takes). Returns the same
 * list when nothing changes, so watchers stay quiet.
 */
export function conformedToDescription(chain: EditorStep[], description: ApiDescription | null): EditorStep[] {
  if (!description) return chain
  const byName = new Map(description.endpoints.map((endpoint) => [endpoint.name, endpoint]))
  let changed = false
  const next = chain.map((entry) => {
    const step = entry.step
    const endpoint = isEndpointStep(step) ? byName.get(step.endpoint) : undefined
    if (!endpoint || !isEndpointStep(step)) return entry
    const described = new Set(endpoint.parameters.map((p) => p.name))
    const parameters = {
      ...describedParameters(endpoint, step.parameters),
      ...Object.fromEntries(Object.entries(step.parameters).filter(([name, value]) => !described.has(name) && value !== '')),
    }
    const same = Object.keys(parameters).length === Object.keys(step.parameters).length && Object.keys(parameters).every((name) => name in step.parameters)
    if (same) return entry
    changed = true
    return { ...entry, step: { ...step, parameters } }
  })
  return changed ? next : chain
}

/** An endpoint's described parameters, each with its value in `values` or empty. */
export function describedParameters(endpoint: EndpointDescription, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(endpoint.parameters.map((p) => [p.name, values[p.name] ?? '']))
}
