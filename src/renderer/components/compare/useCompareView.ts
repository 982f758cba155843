import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { shownItem } from '../../../shared/compare/item-key'
import { useElapsedSeconds } from '../../composables/useElapsedSeconds'
import { useCompareStore } from '../../stores/compare'
import { useConnectionsStore } from '../../stores/connections'
import { useToastsStore } from '../../stores/toasts'
import { offerDownload } from '../../files/offer-download'

/** The compare view: running and cancelling the comparison, how long it has run, and exporting what it found. */
export function useCompareView() {
  const compare = useCompareStore()
  const toasts = useToastsStore()
  const connections = useConnectionsStore()
  const { phase, result, problems, error, running, stale, startedAt, presetByConfig, presetByConnection } = storeToRefs(compare)

  /** What each preset would set, or why it cannot: the buttons' tooltips. */
  const configPresetHint = computed(() =>
    presetByConfig.value
      ? `A: config ${presetByConfig.value.a.config}, B: config ${presetByConfig.value.b.config}, both on ${connections.selected?.name ?? 'this connection'}`
      : 'The API describes only one configuration here: name another in Config B.',
  )
  const connectionPresetHint = computed(() => {
    const other = connections.connections.find((c) => c.id === presetByConnection.value?.b.connectionId)
    return other
      ? `A: ${connections.selected?.name ?? 'this connection'}, B: ${other.name}, with the same API and config`
      : 'There is only one connection: add another with New connection in the top bar.'
  })

  const elapsed = useElapsedSeconds(running, startedAt)
  const progress = computed(() => {
    const seconds = elapsed.value
    return seconds >= 0.3 ? `Running on A and B… ${seconds.toFixed(1)} s` : 'Running on A and B…'
  })

  const canExport = computed(() => (result.value?.changes.length ?? 0) > 0)
  const failedSides = computed(() => (result.value ? [result.value.a, result.value.b].filter((side) => side.error !== null).length : 0))

  /** When one side failed, the other's ranking still shows: there is no diff, but its answer is worth seeing. */
  const answeredAlone = computed(() => {
    const r = result.value
    if (!r || r.figures) return null
    const [name, side] = r.a.error === null ? (['A', r.a] as const) : r.b.error === null ? (['B', r.b] as const) : [null, null]
    if (!name || side.keys.length === 0) return null
    return {
      title: `Top ${r.depth} of ${name}`,
      rows: side.keys.map((key, index) => {
        const shown = shownItem(key, side.labels[index])
        return { rank: index + 1, key, keyText: ` ${shown.key}`, label: shown.label, showKey: shown.distinct }
      }),
    }
  })

  function exportCsv(): void {
    const file = compare.csv()
    if (!file) return
    offerDownload(file.fileName, file.text, 'text/csv;charset=utf-8')
    toasts.show(`Exported the comparison: ${file.fileName}.`, { key: 'compare-export' })
  }

  return {
    phase, result, problems, error, running, stale, progress, canExport, failedSides, answeredAlone,
    presetByConfig, presetByConnection, configPresetHint, connectionPresetHint,
    compareConfigs: () => compare.compareConfigs(), compareConnections: () => compare.compareConnections(),
    run: () => compare.run(), cancel: () => compare.cancel(), exportCsv,
  }
}
