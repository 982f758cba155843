import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startService } from '../src/service'
import { createAppCore, DEMO_CONNECTION_ID, type AppCore } from '../src/main/app/app-core'
import { TokenManager, type TokenAccount } from '../src/main/auth/token-manager'
import { memorySecretStore } from '../src/main/credentials/secret-store'
import { HttpClient } from '../src/main/http/http-client'
import { QueryRunner } from '../src/main/http/query-runner'
import { EXPORT_PAGE_SIZE, exportPageRequest } from '../src/shared/export/plan'
import type { ExportFormat, ExportStatus, QueryReply } from '../src/shared/ipc/contract'
import type { QueryRequest } from '../src/shared/query/model'
import type { CountResponse } from '../src/shared/responses'
import { runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * Export of every row of the "san" search (5,628 on the demo) as the app
 * exports it: `export:start` on an Electron app core (a save dialog that
 * answers with a temporary path stands in for the user's click), the pages
 * of 100 rows asked one after another through the query runner, each read
 * and written in a writer thread, the file renamed into place when complete;
 * timed from the start to the finished status, polled every 5 ms as the
 * window polls it.
 *
 * The baseline, in the same process against the same embedded service: the
 * same pages (exportPageRequest, as JSON) asked one after another through a
 * QueryRunner's fetchBytes, as the export job asks them, with nothing read
 * or written. format / baseline is then what writing costs on top of
 * fetching, and compares across machines better than the milliseconds.
 *
 * From sources, the writer thread loads its entry through tsx
 * (writer-thread.ts): no build is needed. A warm-up run of each first starts
 * the writer thread, loads exceljs and fills the service's chain cache.
 */

const RUNS = 3
const FORMATS: readonly ExportFormat[] = ['csv', 'json', 'xlsx']
const POLL_MS = 5

const search = (count: number): QueryRequest => ({
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'san' } }],
  responseType: 'results',
  options: { count },
})

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

async function call<T>(core: AppCore, channel: string, request: unknown): Promise<T> {
  const result = await core.dispatch(channel, request)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`)
  return result.data as T
}

export async function benchExport(): Promise<BenchResult[]> {
  const service = await startService({ port: 0, log: () => undefined })
  const root = mkdtempSync(join(tmpdir(), 'qe-bench-export-'))
  let nextSave = ''
  let core: AppCore | null = null
  const http = new HttpClient()
  try {
    core = await createAppCore({
      dataDir: join(root, 'data'),
      host: 'electron',
      version: 'bench',
      // The probe writes and deletes one entry under a name of the bench's own; the demo's secret stays in memory.
      keychainService: 'query-explorer-bench',
      demo: service,
      echoLog: false,
      replyCache: { ttlMs: 0 },
      dialogs: { chooseOpen: async () => null, chooseSave: async () => nextSave },
    })
    const app = core
    const counted = { ...search(1), responseType: 'count', options: {} } satisfies QueryRequest
    const rows = ((await call<QueryReply>(app, 'query:run', { connectionId: DEMO_CONNECTION_ID, requestId: 'bench-total', request: counted })).body as CountResponse).total
    const pages = Math.ceil(rows / EXPORT_PAGE_SIZE)

    const tokens = new TokenManager(http)
    const runner = new QueryRunner(http, tokens, { ttlMs: 0 })
    const account: TokenAccount = {
      key: 'bench-export',
      authUrl: service.authUrl,
      queryOrigin: new URL(service.queryUrl).origin,
      workspace: service.workspace,
      clientId: service.account.clientId,
      secret: async () => service.account.clientSecret,
      cache: memorySecretStore('bench'),
    }
    const target = { key: 'bench-export', queryUrl: service.queryUrl, account }
    const request = search(EXPORT_PAGE_SIZE)

    const baseline = async (): Promise<number> => {
      const started = performance.now()
      let fetched = 0
      for (let offset = 0; offset < rows; offset += EXPORT_PAGE_SIZE) {
        const reply = await runner.fetchBytes(target, exportPageRequest(request, offset, Math.min(EXPORT_PAGE_SIZE, rows - offset), 'json'))
        if (reply.body.length === 0) throw new Error(`page at ${offset} is empty`)
        fetched++
      }
      const ms = performance.now() - started
      if (fetched !== pages) throw new Error(`the baseline fetched ${fetched} pages, not ${pages}`)
      return ms
    }

    let runs = 0
    const exportOnce = async (format: ExportFormat): Promise<{ ms: number; bytes: number }> => {
      nextSave = join(root, `san-${runs++}.${format}`)
      const started = performance.now()
      const begun = await call<ExportStatus | null>(app, 'export:start', { connectionId: DEMO_CONNECTION_ID, request, format, rows })
      if (!begun) throw new Error('the save dialog was cancelled')
      let status = begun
      while (status.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        status = await call<ExportStatus>(app, 'export:status', { exportId: begun.exportId })
      }
      const ms = performance.now() - started
      if (status.state !== 'done' || status.rows !== rows) throw new Error(`${format} export: ${status.state}, ${status.rows} of ${rows} rows: ${status.message ?? ''}`)
      const bytes = statSync(nextSave).size
      rmSync(nextSave)
      return { ms, bytes }
    }

    await baseline()
    for (const format of FORMATS) await exportOnce(format)
    // Interleaved, so that drift on a busy machine hits the baseline and every format alike.
    const base: number[] = []
    const timed = new Map<ExportFormat, number[]>(FORMATS.map((format) => [format, []]))
    const sizes = new Map<ExportFormat, number>()
    for (let i = 0; i < RUNS; i++) {
      base.push(await baseline())
      for (const format of FORMATS) {
        const { ms, bytes } = await exportOnce(format)
        timed.get(format)!.push(ms)
        sizes.set(format, bytes)
      }
    }
    const baseMs = median(base)
    const results: BenchResult[] = [
      {
        name: `export: baseline, ${pages} pages of ${EXPORT_PAGE_SIZE} fetched, nothing written`,
        value: round(baseMs, 0),
        unit: 'ms',
        note: `median of ${RUNS}; "san" on the embedded demo, ${rows.toLocaleString('en-US')} rows, JSON pages through QueryRunner.fetchBytes one after another`,
      },
    ]
    for (const format of FORMATS) {
      const ms = median(timed.get(format)!)
      const mib = round(sizes.get(format)! / 1024 / 1024, 1)
      results.push(
        { name: `export: ${format.toUpperCase()} of ${rows.toLocaleString('en-US')} rows`, value: round(ms, 0), unit: 'ms', note: `median of ${RUNS}; export:start → done on the app core, writer thread; ${mib} MiB` },
        { name: `export: ${format.toUpperCase()} / baseline`, value: round(ms / baseMs, 2), unit: '×', note: 'time to export ÷ time to fetch the same pages' },
      )
    }
    return results
  } finally {
    await core?.close()
    await http.close()
    await service.close()
    rmSync(root, { recursive: true, force: true })
  }
}

runWhenMain(__filename, benchExport)
