import type { ExportJobs } from '../../export/export-jobs'
import type { DomainHandlers } from '../handler-table'

/** Export results: started here, then polled (the window asks every ~250 ms) until done, failed or cancelled. */
export function exportHandlers(exports: ExportJobs): DomainHandlers<'export:start' | 'export:status' | 'export:cancel'> {
  return {
    'export:start': (request) => exports.start(request),
    'export:status': async ({ runId }) => exports.status(runId),
    'export:cancel': ({ runId }) => exports.cancel(runId),
  }
}
