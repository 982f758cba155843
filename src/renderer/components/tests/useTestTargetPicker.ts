import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { OWN_CONNECTIONS } from '../../../shared/test-cases/target-text'
import { useConnectionsStore } from '../../stores/connections'
import { useTestsStore } from '../../stores/tests'

/** The value of the "each case's own connection" choice (no app connection has an empty id). */
export const OWN = ''

/**
 * Where Run tests and Update snapshot go: each case's own connection, or one
 * connection; the API and config pickers show from the start (a config chosen
 * with each case's own connection runs on the connection the cases run on).
 */
export function useTestTargetPicker() {
  const tests = useTestsStore()
  const connections = useConnectionsStore()
  const { target, targetApis, targetConfigOptions, running } = storeToRefs(tests)

  const ownLabel = OWN_CONNECTIONS.charAt(0).toUpperCase() + OWN_CONNECTIONS.slice(1)
  const connectionOptions = computed(() => connections.connections.map((c) => ({ value: c.id, label: c.name })))
  const connectionValue = computed(() => target.value.connectionId ?? OWN)

  const valueOf = (event: Event) => (event.target as HTMLSelectElement).value
  const onConnection = (event: Event) => tests.chooseConnection(valueOf(event) === OWN ? null : valueOf(event))
  const onApi = (event: Event) => tests.chooseApi(valueOf(event))
  const onConfig = (event: Event) => tests.chooseConfig(valueOf(event))

  /** The two pickers that narrow the target to one API or config, each with "each case's own" first. */
  const narrowings = computed(() => [
    { label: 'API', name: 'Target API', value: target.value.api, options: targetApis.value, choose: onApi },
    { label: 'Config', name: 'Target config', value: target.value.config, options: targetConfigOptions.value, choose: onConfig },
  ])

  return { target, targetApis, targetConfigOptions, running, ownLabel, connectionOptions, connectionValue, OWN, onConnection, onApi, onConfig, narrowings }
}
