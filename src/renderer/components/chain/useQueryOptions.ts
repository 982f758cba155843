import { storeToRefs } from 'pinia'
import { computed, nextTick, type Ref } from 'vue'
import { FORMATS, RESPONSE_TYPES, type OptionName, type ResponseType } from '../../../shared/query/model'
import { NUMERIC_OPTION_FIELDS, type TypedOptionName } from '../../../shared/query/option-fields'
import { optionApplies, responseTypeLabel } from '../../../shared/query/response-types'
import { PAGE_SIZES, useChainStore } from '../../stores/chain'
import { useFacetsStore } from '../../stores/facets'
import { useQueryStore } from '../../stores/query'

/** What each response type answers, for the picker's tooltip. */
const TYPE_HINTS: Record<ResponseType, string> = {
  results: 'A page of results, shown in the grid',
  statistics: 'The number of results and how many pass each cutoff',
  count: 'Only the number of results',
  'results,count': 'A page of results and their number, in one request',
  resultpage: 'A page of results whose tuples hold the objects themselves',
  resultitem: 'One result object, by rank and column',
  options: "A facet's options and the options selected",
}

/** The options form: response type, page size, the numbers typed in (level, cutoff, rank, column), tuple form, the export format and each type's own options. */
export function useQueryOptions() {
  const query = useQueryStore()
  const facetsStore = useFacetsStore()
  const chain = useChainStore()
  const { count, level, homogeneousArrays, cutoff, format, problems, responseType, facet, multiselect, rank, column, extraOptions } = storeToRefs(chain)

  const responseTypes = RESPONSE_TYPES.map((type) => ({ value: type, label: responseTypeLabel(type), hint: TYPE_HINTS[type] }))
  /** An option the chosen type does not take is not sent: its control is disabled so the form says the same as the URL. */
  const applies = (name: OptionName) => optionApplies(name, responseType.value)
  /** The facets whose options can be asked: the description's and those declared by hand, as the facets panel lists them. */
  const facets = computed(() => facetsStore.facets)
  /** Choosing options/<facet> with no facet yet picks the first one, so the request can run at once. */
  function setResponseType(type: ResponseType): void {
    responseType.value = type
    if (type === 'options' && !facets.value.includes(facet.value) && facets.value.length > 0) facet.value = facets.value[0]!
  }

  /** A pasted URL may ask for another page size (7, or an invalid 500): it is offered as it is, so nothing is lost. */
  const pageSizes = computed(() => {
    const sizes: number[] = [...PAGE_SIZES]
    if (!sizes.includes(count.value)) sizes.push(count.value)
    return sizes.sort((a, b) => a - b)
  })

  const problemOf = (name: string) => problems.value.find((p) => p.field === `options.${name}`)?.message ?? null

  /** The numbers typed in (rank, column, level, cutoff): one field each, as option-fields.ts describes them, for the options the type takes. */
  const numbers: Record<TypedOptionName, Ref<number> | Ref<number | null>> = { rank, column, level, cutoff }
  const numberFields = computed(() =>
    NUMERIC_OPTION_FIELDS.filter((field) => applies(field.name)).map((field) => ({
      ...field,
      value: numbers[field.name].value ?? '',
      invalid: problemOf(field.name) !== null,
    })),
  )
  const fieldOf = (name: TypedOptionName) => NUMERIC_OPTION_FIELDS.find((field) => field.name === name)!
  /**
   * A required option (rank, column) takes only a whole number from its minimum: while something else is typed the
   * last one stays. Another is left out while its field is empty or holds no number.
   */
  function setNumber(name: TypedOptionName, event: Event): void {
    const text = (event.target as HTMLInputElement).value
    const n = Number(text)
    const field = fieldOf(name)
    if (!field.required) numbers[name].value = text.trim() === '' || !Number.isFinite(n) ? null : n
    else if (text.trim() !== '' && Number.isInteger(n) && n >= field.min) numbers[name].value = n
  }
  /** Leaving a required field shows the value kept, whatever was typed. */
  function showNumber(name: TypedOptionName, event: Event): void {
    if (fieldOf(name).required) (event.target as HTMLInputElement).value = String(numbers[name].value)
  }
  /** A new page size shows at once: the rows on screen are asked again at that size. */
  const setPageSize = (text: string) => query.setPageSize(Number(text))

  /**
   * The rows of options this client does not know, each with what is wrong
   * with it: validation's sentence (a blank name, a known option's name), or
   * a name given twice, which the request cannot hold (the last row would win).
   */
  const extraNameId = (id: string) => `extra-option-${id}-name`
  const extraRows = computed(() => {
    const seen = new Map<string, number>()
    for (const row of extraOptions.value) if (row.name.trim() !== '') seen.set(row.name, (seen.get(row.name) ?? 0) + 1)
    return extraOptions.value.map((row, index) => {
      const label = row.name.trim() === '' ? `option ${index + 1}` : row.name
      const twice = (seen.get(row.name) ?? 0) > 1 ? `Option ${row.name} is given twice: keep one row (only the last one is sent).` : null
      const blank = row.name.trim() === '' && row.value !== '' ? problemOf('extra') : null
      const problem = twice ?? blank ?? problemOf(`extra.${row.name}`)
      return { ...row, label, nameId: extraNameId(row.id), problem, nameLabel: `Name of ${label}`, valueLabel: `Value of ${label}`, removeLabel: `Remove ${label}` }
    })
  })
  /** A new row, with the focus on its name: that is what is typed next. */
  async function addExtraOption(): Promise<void> {
    const id = chain.addExtraOption()
    await nextTick()
    document.getElementById(extraNameId(id))?.focus()
  }
  const setExtraName = (id: string, name: string) => chain.updateExtraOption(id, { name })
  const setExtraValue = (id: string, value: string) => chain.updateExtraOption(id, { value })
  const removeExtraOption = (id: string) => chain.removeExtraOption(id)

  return {
    count, homogeneousArrays, format, formats: FORMATS, pageSizes, setPageSize, problemOf, numberFields, setNumber, showNumber,
    responseType, responseTypes, setResponseType, applies, facets, facet, multiselect,
    extraRows, addExtraOption, setExtraName, setExtraValue, removeExtraOption,
  }
}
