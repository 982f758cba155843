import { storeToRefs } from 'pinia'
import { useFacetsStore } from '../../stores/facets'

/** The facets of the API, each with its own group; the store keeps their options in step with the chain. */
export function useFacetsPanel() {
  const { facets } = storeToRefs(useFacetsStore())
  return { facets }
}
