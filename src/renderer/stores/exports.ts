import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ExportStatus, RequestOf } from '../../shared/ipc/contract'
import { call } from '../api/explorer-client'
import { useFollowedJob } from '../composables/useFollowedJob'
import { openDownload } from '../files/offer-download'
import { useToastsStore } from './toasts'

/** How often a running export's progress is asked for. */
export const POLL_MS = 250
const number = (value: number) => value.toLocaleString('en-US')

/**
 * The export main writes in the background, followed here (not in the
 * dialog, which may be closed while it runs): its progress, Cancel, and its
 * end: a done export is downloaded (browser host) or said in a toast, a
 * failure is shown in the dialog, or in a toast when the dialog is closed.
 */
export const useExportsStore = defineStore('exports', () => {
  const toasts = useToastsStore()
  /** Why the last export failed or could not start. */
  const failure = ref<string | null>(null)
  /** What a cancel kept or did not. */
  const note = ref<string | null>(null)
  /** The dialog says whether it is open: an end while it is closed is told in a toast. */
  const dialogOpen = ref(false)
  /** Counts exports that ended done: the dialog closes at each. */
  const completed = ref(0)
  const starting = ref(false)

  const followed = useFollowedJob('export', { intervalMs: POLL_MS, error: failure, unreadable: "The export's progress could not be read", ended })
  const { run: status, running } = followed
  /** choosing: the form; starting: waiting for export:start (and Electron's save dialog); running: progress. */
  const phase = computed(() => (starting.value ? 'starting' : running.value ? 'running' : 'choosing'))

  function ended(final: ExportStatus | null): void {
    if (!final) return
    if (final.state === 'done') {
      if (final.downloadUrl) openDownload(final.downloadUrl, final.fileName)
      const rows = `${number(final.rows)} row${final.rows === 1 ? '' : 's'}`
      toasts.show(final.downloadUrl ? `Exported ${rows}: downloading ${final.fileName}.` : `Exported ${rows} to ${final.fileName}.`, { key: 'export' })
      followed.clear()
      completed.value++
    } else if (final.state === 'failed') {
      failure.value = final.message ?? 'The export failed.'
      // The dialog may have been closed while it ran: the failure must still be seen.
      if (!dialogOpen.value) toasts.show(`Export failed: ${failure.value}`, { tone: 'danger', key: 'export' })
    } else {
      note.value = final.message ?? 'Export cancelled.'
    }
  }

  /** Starts an export; false when it did not start (the user closed the save dialog, or a refusal, then in `failure`). */
  async function start(request: RequestOf<'export:start'>): Promise<boolean> {
    if (phase.value !== 'choosing') return false
    failure.value = null
    note.value = null
    starting.value = true
    try {
      return (await followed.begin(() => call('export:start', request))) !== null
    } finally {
      starting.value = false
    }
  }

  return { status, phase, failure, note, dialogOpen, completed, start, cancel: () => followed.cancel(), stop: followed.stop }
})
