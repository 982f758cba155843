import { storeToRefs } from 'pinia'
import { useCompareStore } from '../../stores/compare'

/** The "Compare" button: the results area shows the compare view while it is pressed. */
export function useCompareToggle() {
  const compare = useCompareStore()
  const { open } = storeToRefs(compare)
  return { open, toggle: () => compare.toggle() }
}
