import { storeToRefs } from 'pinia'
import { computed, nextTick } from 'vue'
import { FORMATS, RESPONSE_TYPES, type OptionName, type ResponseType } from '../../../shared/query/model'
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

/** The options form: response type, page size, level, tuple form, cutoff, the export format and each type's own options. */
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
  /** Rank and column count from 1: while something else is typed the last whole number stays (the field shows it again on leaving). */
  const positive = (text: string): number | null => {
    const n = Number(text)
    return text.trim() !== '' && Number.isInteger(n) && n >= 1 ? n : null
  }
  const setRank = (text: string) => (rank.value = positive(text) ?? rank.value)
  const setColumn = (text: string) => (column.value = positive(text) ?? column.value)

  /** A pasted URL may ask for another page size (7, or an invalid 500): it is offered as it is, so nothing is lost. */
  const pageSizes = computed(() => {
    const sizes: number[] = [...PAGE_SIZES]
    if (!sizes.includes(count.value)) sizes.push(count.value)
    return sizes.sort((a, b) => a - b)
  })

  const optionalNumber = (text: string): number | null => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text))
  const setLevel = (text: string) => (level.value = optionalNumber(text))
  const setCutoff = (text: string) => (cutoff.value = optionalNumber(text))
  const problemOf = (name: string) => problems.value.find((p) => p.field === `options.${name}`)?.message ?? null
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
      return { ...row, label, nameId: extraNameId(row.id), problem: twice ?? blank ?? problemOf(`extra.${row.name}`) }
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
    count, level, homogeneousArrays, cutoff, format, formats: FORMATS, pageSizes, setPageSize, setLevel, setCutoff, problemOf,
    responseType, responseTypes, setResponseType, applies, facets, facet, multiselect, rank, column, setRank, setColumn,
    extraRows, addExtraOption, setExtraName, setExtraValue, removeExtraOption,
  }
}
