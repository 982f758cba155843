import { computed, type Ref } from 'vue'
import type { FacetOption } from '../../../shared/responses'
import type { SingleAnswer } from '../../stores/query'

const number = (value: number) => value.toLocaleString('en-US')

/** One attribute of a result object as the definition list shows it: a name and readable text. */
export interface ObjectEntry {
  name: string
  text: string
}

/**
 * A value of the entity view as text: a referenced object by its name (and
 * id), a list joined, anything deeper as compact JSON so nothing is hidden.
 */
export function readable(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map(readable).join(', ')
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>
    if (typeof record.id === 'string') return typeof record.name === 'string' ? `${record.name} (${record.id})` : record.id
    return JSON.stringify(value)
  }
  return String(value)
}

/** A facet option with whether the chain selects it, for the options table. */
export interface OptionRow extends FacetOption {
  selected: boolean
}

/** What the answer views show for count, statistics, resultitem and options/<facet>. */
export function useAnswerView(answer: Ref<SingleAnswer>) {
  const total = computed(() => (answer.value.type === 'count' || answer.value.type === 'statistics' ? answer.value.body.total : null))
  const totalText = computed(() => (total.value === null ? '' : `${number(total.value)} ${total.value === 1 ? 'result' : 'results'}`))
  const stats = computed(() => (answer.value.type === 'statistics' ? answer.value.body.stats : []))

  const object = computed(() => (answer.value.type === 'resultitem' ? answer.value.body : null))
  const objectId = computed(() => (object.value && object.value.id !== undefined ? readable(object.value.id) : null))
  const objectClasses = computed(() => {
    const value = object.value?.class
    return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : []
  })
  const objectEntries = computed<ObjectEntry[]>(() =>
    Object.entries(object.value ?? {})
      .filter(([name]) => name !== 'id' && name !== 'class')
      .map(([name, value]) => ({ name, text: readable(value) })),
  )
  const itemTitle = computed(() => (answer.value.type === 'resultitem' ? `Result ${answer.value.rank}, column ${answer.value.column}` : ''))

  const facetTitle = computed(() => (answer.value.type === 'options' ? (answer.value.body.title ?? answer.value.body.id) : ''))
  /** The options offered, each marked when it is in the selection; selected options the list leaves out come first so none is hidden. */
  const optionRows = computed<OptionRow[]>(() => {
    if (answer.value.type !== 'options') return []
    const { options, selected } = answer.value.body
    const chosen = new Set(selected.map((option) => option.id))
    const offered = new Set(options.map((option) => option.id))
    return [
      ...selected.filter((option) => !offered.has(option.id)).map((option) => ({ ...option, selected: true })),
      ...options.map((option) => ({ ...option, selected: chosen.has(option.id) })),
    ]
  })
  const selectedText = computed(() => {
    if (answer.value.type !== 'options') return ''
    const { selected } = answer.value.body
    return selected.length === 0 ? 'Nothing selected' : `Selected: ${selected.map((option) => option.title ?? option.id).join(', ')}`
  })

  return { total, totalText, stats, object, objectId, objectClasses, objectEntries, itemTitle, facetTitle, optionRows, selectedText, number }
}
