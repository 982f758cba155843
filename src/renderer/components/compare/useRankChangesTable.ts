import { computed, useId } from 'vue'
import { labelsByKey } from '../../../shared/compare/comparison'
import { shownItem } from '../../../shared/compare/item-key'
import { moveText } from '../../../shared/compare/rank-metrics'
import type { Comparison } from '../../../shared/ipc/contract'

type Move = Comparison['changes'][number]['move']

/** How a move reads to someone who cannot see its arrow or colour. */
function moveTitle(move: Move): string {
  switch (move.kind) {
    case 'up':
      return `Up ${move.by} place${move.by === 1 ? '' : 's'} in B`
    case 'down':
      return `Down ${move.by} place${move.by === 1 ? '' : 's'} in B`
    case 'same':
      return 'The same rank in both'
    case 'new':
      return `In B's top only`
    case 'gone':
      return `In A's top only`
  }
}

/** The rank diff as table rows: the item (label, with its key where the two differ), its rank on each side and its move. */
export function useRankChangesTable(result: () => Comparison) {
  const rows = computed(() => {
    const labels = labelsByKey(result())
    return result().changes.map((change) => {
      const shown = shownItem(change.key, labels.get(change.key))
      return {
        key: change.key,
        label: shown.label,
        showKey: shown.distinct,
        // A space before it, so the cell reads "Sanaa 71137" aloud and when copied, not "Sanaa71137".
        keyText: ` ${shown.key}`,
        rankA: change.rankA === null ? '–' : String(change.rankA),
        rankB: change.rankB === null ? '–' : String(change.rankB),
        move: moveText(change.move),
        moveKind: change.move.kind,
        moveTitle: moveTitle(change.move),
      }
    })
  })
  const summary = computed(() => {
    const changes = result().changes
    const moved = changes.filter((c) => c.move.kind === 'up' || c.move.kind === 'down').length
    const fresh = changes.filter((c) => c.move.kind === 'new').length
    const gone = changes.filter((c) => c.move.kind === 'gone').length
    return `top ${result().depth}: ${moved} moved, ${fresh} new in B, ${gone} gone from B`
  })
  return { rows, summary, titleId: `${useId()}-title` }
}
