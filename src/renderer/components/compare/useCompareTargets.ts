import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import type { TargetForm } from '../../../shared/compare/compare-targets'
import { COMPARE_DEPTHS, useCompareStore, type CompareDepth } from '../../stores/compare'
import { useConnectionsStore } from '../../stores/connections'

/** The two targets' fields (connection, API, config, version) and the depth both are compared to. */
export function useCompareTargets() {
  const compare = useCompareStore()
  const { a, b, depth } = storeToRefs(compare)
  const { connections } = storeToRefs(useConnectionsStore())

  const side = (key: 'a' | 'b', name: 'A' | 'B', form: TargetForm) => {
    const connection = connections.value.find((c) => c.id === form.connectionId)
    return {
      key,
      name,
      form,
      connectionName: connection?.name ?? '',
      // An empty Version box: the connection's own version (or none) applies.
      versionHint: connection?.version ? `own (${connection.version})` : 'none',
      apis: compare.apisFor(form),
      configs: compare.configsFor(form),
    }
  }
  const sides = computed(() => [side('a', 'A', a.value), side('b', 'B', b.value)])

  const set = (key: 'a' | 'b', change: Partial<TargetForm>) => compare.setTarget(key, change)
  function chooseDepth(value: string): void {
    const number = Number(value)
    if ((COMPARE_DEPTHS as readonly number[]).includes(number)) depth.value = number as CompareDepth
  }

  return { sides, connections, depth, depths: COMPARE_DEPTHS, set, chooseDepth }
}
