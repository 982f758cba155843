import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { FORMATS } from '../../../shared/query/model'
import { PAGE_SIZES, useQueryStore } from '../../stores/query'

/** The options form: page size, level, tuple form, cutoff and the export format. */
export function useQueryOptions() {
  const query = useQueryStore()
  const { count, level, homogeneousArrays, cutoff, format, problems } = storeToRefs(query)

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

  return { count, level, homogeneousArrays, cutoff, format, formats: FORMATS, pageSizes, setPageSize, setLevel, setCutoff, problemOf }
}
