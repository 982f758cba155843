import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { useChainStore } from '../../stores/chain'
import { useQueryStore } from '../../stores/query'

/** The statistics panel's logic: the last statistics answer, the cutoff it is read at, and whether a run is replacing it. */
export function useStatisticsPanel() {
  const { statistics, phase } = storeToRefs(useQueryStore())
  const { cutoff } = storeToRefs(useChainStore())
  const stale = computed(() => phase.value === 'running')
  return { statistics, cutoff, stale }
}
