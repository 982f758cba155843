import { storeToRefs } from 'pinia'
import { computed, ref, watch, type Ref } from 'vue'
import { exportFileName } from '../../../shared/export/file-name'
import { readableHeaders } from '../../../shared/export/headers'
import { EXPORT_FORMAT_DESCRIPTIONS, EXPORT_FORMAT_LABELS, exportRange, type ExportRowsChoice } from '../../../shared/export/plan'
import type { Column } from '../../../shared/results/table'
import { EXPORT_FORMATS, MAX_EXPORT_ROWS, type ExportFormat } from '../../../shared/ipc/contract'
import { useModalDialog } from '../../composables/useModalDialog'
import { useExportsStore } from '../../stores/exports'
import { useQueryStore } from '../../stores/query'
import { useWorkspaceStore } from '../../stores/workspace'

const DEFAULT_UP_TO = 1_000
const number = (value: number) => value.toLocaleString('en-US')

/**
 * The export dialog: format and rows chosen here, the file written by the
 * main process (this window never holds its bytes), progress polled until it
 * ends. Closing the dialog while an export runs leaves it running; its end is
 * announced in a toast, and the Export button shows the dialog again.
 * A table (CSV, XLSX) has the grid's columns (its Columns choice) unless the
 * user asks for every one; the file is named after the saved query or the
 * search; after Load more the loaded rows are what is offered first.
 */
export function useExportDialog(open: Ref<boolean>, shownColumns: () => readonly Column[]) {
  // The Rating column is the set's grades, not the service's answer, which main writes the file from: left out.
  const gridColumns = () => shownColumns().filter((column) => column.kind !== 'rating')
  const query = useQueryStore()
  const workspace = useWorkspaceStore()
  const { shown, shownOffset, shownCount, items, edited, total } = storeToRefs(query)

  const format = ref<ExportFormat>('csv')
  const rowsChoice = ref<ExportRowsChoice>('page')
  const upTo = ref<number | string>(DEFAULT_UP_TO)
  /** grid: the columns the grid shows, in its order; all: every column the service sends. */
  const columnsChoice = ref<'grid' | 'all'>('grid')
  const tabular = computed(() => format.value === 'csv' || format.value === 'xlsx')
  /** The header the grid's columns get in the file (shared/export/headers.ts), for the choice's description. */
  const gridHeader = computed(() => readableHeaders(gridColumns().map((column) => column.key)))
  const columnsText = computed(() => {
    const names = gridHeader.value
    const shown = names.slice(0, 6).join(', ')
    return `${names.length} columns: ${shown}${names.length > 6 ? ', …' : ''}`
  })
  const fileName = computed(() => {
    const source = shown.value
    return source ? exportFileName({ request: source.request, savedQuery: workspace.savedQuery }, format.value) : ''
  })
  // The export itself (its progress, Cancel, its end) is the store's: it goes on when the dialog closes.
  const exports = useExportsStore()
  const { status, phase, failure, note } = storeToRefs(exports)
  const upToProblem = ref<string | null>(null)
  watch(open, (isOpen) => (exports.dialogOpen = isOpen), { immediate: true })
  watch(() => exports.completed, () => (open.value = false))

  const formats = EXPORT_FORMATS.map((value) => ({ value, label: EXPORT_FORMAT_LABELS[value], description: EXPORT_FORMAT_DESCRIPTIONS[value] }))
  const grid = computed(() => ({ offset: shownOffset.value, pageSize: Number(shownCount.value), loaded: items.value.length }))
  /** "Loaded rows" is offered once Load more has put more than one page in the grid. */
  const hasLoaded = computed(() => items.value.length > Number(shownCount.value))
  const pageRange = computed(() => `rows ${number(grid.value.offset + 1)}–${number(grid.value.offset + Math.min(grid.value.pageSize, Math.max(1, items.value.length)))}`)
  const loadedRange = computed(() => `rows ${number(grid.value.offset + 1)}–${number(grid.value.offset + grid.value.loaded)}`)
  const maxRows = MAX_EXPORT_ROWS

  const progressText = computed(() => {
    const current = status.value
    if (phase.value === 'starting') return 'Starting the export…'
    if (!current) return ''
    return `Exported ${number(current.rows)} of ${number(current.rowsWanted)} rows`
  })
  const progressValue = computed(() => status.value?.rows ?? 0)
  const progressMax = computed(() => status.value?.rowsWanted ?? 1)

  const { dialog } = useModalDialog({
    open: () => open.value,
    beforeOpen: () => {
      if (phase.value !== 'choosing') return
      // After Load more the rows loaded are what the user is looking at; a number typed for "Up to" is kept.
      if (hasLoaded.value && rowsChoice.value !== 'upTo') rowsChoice.value = 'loaded'
      else if (!hasLoaded.value && rowsChoice.value === 'loaded') rowsChoice.value = 'page'
    },
    // The format chosen (arrow keys change it), or Cancel while an export runs; not the × that showModal would pick.
    focus: 'input[name="export-format"]:checked, .export-dialog__footer .button',
  })

  function readUpTo(): number | null {
    const value = Number(upTo.value)
    if (String(upTo.value).trim() === '' || !Number.isInteger(value) || value < 1 || value > MAX_EXPORT_ROWS) {
      upToProblem.value = `Enter a whole number of rows from 1 to ${number(MAX_EXPORT_ROWS)}.`
      return null
    }
    upToProblem.value = null
    return value
  }

  async function start(): Promise<void> {
    const source = shown.value
    if (!source || phase.value !== 'choosing') return
    let upToRows = 0
    if (rowsChoice.value === 'upTo') {
      const read = readUpTo()
      if (read === null) return
      upToRows = read
    }
    const range = exportRange(rowsChoice.value, grid.value, upToRows)
    // Past the total there is nothing to ask for; the progress then counts toward what really comes.
    const rows = total.value === null ? range.rows : Math.max(1, Math.min(range.rows, total.value - range.offset))
    const { offset: _offset, ...options } = source.request.options
    const request = { ...source.request, options: { ...options, ...(range.offset > 0 ? { offset: range.offset } : {}) } }
    const columns = tabular.value && columnsChoice.value === 'grid' ? gridColumns().map((column) => column.key) : []
    const savedQuery = workspace.savedQuery
    await exports.start({
      connectionId: source.connectionId,
      request,
      format: format.value,
      rows: Math.min(rows, MAX_EXPORT_ROWS),
      ...(columns.length > 0 ? { columns } : {}),
      ...(savedQuery ? { savedQuery } : {}),
    })
  }

  const cancel = () => exports.cancel()
  const close = () => (open.value = false)
  /** Typing a number means "Up to" that many. */
  const chooseUpTo = () => (rowsChoice.value = 'upTo')

  return {
    dialog, format, formats, rowsChoice, upTo, upToProblem, maxRows, phase, status, failure, note, edited,
    hasLoaded, pageRange, loadedRange, progressText, progressValue, progressMax, chooseUpTo, start, cancel, close,
    columnsChoice, tabular, columnsText, fileName,
  }
}
