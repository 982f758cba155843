import type { FacetOption, OptionsResponse, ResultObject } from '../responses'
import { visibleControls } from '../text/visible-controls'

/**
 * The text the answer views show for a result object (resultitem) and for a
 * facet's options (options/<facet>). Every name, id, class and title here is
 * the server's, so each is shown through visibleControls: an RLO could
 * otherwise make one object or option read as another. Keys stay as sent.
 */

/**
 * A value of the entity view as text, as sent: a referenced object by its
 * name (and id), a list joined, anything deeper as compact JSON so nothing is hidden.
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

/** One attribute of a result object as the definition list shows it. */
export interface ObjectEntry {
  /** The attribute's name as sent, to tell the entries apart. */
  key: string
  /** The name as shown. */
  name: string
  /** The value as readable text, as shown. */
  text: string
}

/** A result object as the entity view shows it. */
export interface ShownObject {
  /** Its id as shown; null when it has none. */
  id: string | null
  classes: string[]
  entries: ObjectEntry[]
}

export function shownObject(object: ResultObject): ShownObject {
  const classValue = object.class
  const classes = Array.isArray(classValue) ? classValue.map(String) : typeof classValue === 'string' ? classValue.split(/\s+/).filter(Boolean) : []
  return {
    id: object.id !== undefined ? visibleControls(readable(object.id)) : null,
    classes: classes.map((name) => visibleControls(name)),
    entries: Object.entries(object)
      .filter(([name]) => name !== 'id' && name !== 'class')
      .map(([name, value]) => ({ key: name, name: visibleControls(name), text: visibleControls(readable(value)) })),
  }
}

/** A facet option with whether the chain selects it, for the options table. */
export interface OptionRow extends FacetOption {
  selected: boolean
  /** Its title (else its id) as shown. */
  label: string
  /** Its id as shown; `id` stays as sent. */
  idText: string
}

/** The options offered, each marked when it is in the selection; selected options the list leaves out come first so none is hidden. */
export function optionRows(body: OptionsResponse): OptionRow[] {
  const { options, selected } = body
  const chosen = new Set(selected.map((option) => option.id))
  const offered = new Set(options.map((option) => option.id))
  const row = (option: FacetOption, isSelected: boolean): OptionRow => ({
    ...option,
    selected: isSelected,
    label: visibleControls(option.title ?? option.id),
    idText: visibleControls(option.id),
  })
  return [...selected.filter((option) => !offered.has(option.id)).map((option) => row(option, true)), ...options.map((option) => row(option, chosen.has(option.id)))]
}

/** The facet's heading: its title, else its options endpoint. */
export function optionsTitle(body: OptionsResponse): string {
  return visibleControls(body.title ?? body.id)
}

export function selectedText(body: OptionsResponse): string {
  const { selected } = body
  return selected.length === 0 ? 'Nothing selected' : `Selected: ${selected.map((option) => visibleControls(option.title ?? option.id)).join(', ')}`
}
