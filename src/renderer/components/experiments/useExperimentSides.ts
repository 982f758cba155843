import { storeToRefs } from 'pinia'
import { computed, onMounted } from 'vue'
import { useConnectionsStore } from '../../stores/connections'
import { DEPTHS } from '../../stores/evaluations'
import { MAX_SIDES, useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { plainOptions } from '../controls/field-options'
import { sideLetter } from './experiment-format'

export const ALPHAS = [0.01, 0.05, 0.1] as const

/**
 * The form of the next experiment: its sides (A the baseline), depth,
 * attribution and significance level, and its run (progress, Cancel). The
 * store holds the form, so it survives the view being left and shown again.
 */
export function useExperimentSides() {
  const experiments = useExperimentsStore()
  const connections = useConnectionsStore()
  const sets = useQuerySetsStore()
  const { sides, depth, attribution, alpha, run, running } = storeToRefs(experiments)

  // The first time the view shows, and after a side's connection went away.
  onMounted(() => experiments.ensureSides())

  const connectionOptions = computed(() => connections.connections.map((connection) => ({ value: connection.id, label: connection.name })))

  /**
   * A side's configs: those its connection's API describes (known only for
   * the editor's connection), the one set, and '' for the template's own.
   */
  function configOptions(index: number): { value: string; label: string }[] {
    const side = sides.value[index]
    if (!side) return []
    const described = side.connectionId === connections.selectedId ? (connections.description?.configs ?? []) : []
    const named = [...new Set([...described, side.config].filter(Boolean))]
    return [{ value: '', label: "The template's own" }, ...named.map((config) => ({ value: config, label: config }))]
  }

  function setConnection(index: number, connectionId: string): void {
    sides.value = sides.value.map((side, at) => (at === index ? { ...side, connectionId } : side))
  }
  function setConfig(index: number, config: string): void {
    sides.value = sides.value.map((side, at) => (at === index ? { ...side, config } : side))
  }

  const rows = computed(() =>
    sides.value.map((side, index) => ({
      index,
      letter: sideLetter(index),
      // A and B make an experiment: they stay.
      removable: index >= 2,
      connectionId: side.connectionId,
      // A side with no connection yet says so until one is chosen.
      connectionOptions: side.connectionId ? connectionOptions.value : [{ value: '', label: 'Choose a connection' }, ...connectionOptions.value],
      config: side.config,
    })),
  )
  const canAdd = computed(() => sides.value.length < MAX_SIDES)
  const canRun = computed(() => !running.value && !!sets.set && sets.set.queries.length > 0 && sides.value.length >= 2 && sides.value.every((side) => side.connectionId))
  const progressText = computed(() => (run.value ? `${run.value.done} of ${run.value.total} queries` : ''))
  const phaseText = computed(() => run.value?.phase ?? '')

  return {
    experiments, rows, depth, attribution, alpha, run, running, connectionOptions, configOptions, setConnection, setConfig,
    canAdd, canRun, progressText, phaseText, depthOptions: plainOptions(DEPTHS), alphaOptions: plainOptions(ALPHAS),
  }
}
