import { computed, useId } from 'vue'
import { figureTexts } from '../../../shared/compare/figure-text'
import type { Comparison } from '../../../shared/ipc/contract'

/** The figures of a comparison, each with ids tying its name and explanation to it for assistive technology. */
export function useCompareFigures(result: () => Comparison) {
  const id = useId()
  const figures = computed(() =>
    figureTexts(result()).map((figure) => ({ ...figure, nameId: `${id}-${figure.id}-name`, valueId: `${id}-${figure.id}-value`, helpId: `${id}-${figure.id}-help` })),
  )
  return { figures }
}
