import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * The exports store (src/renderer/stores/exports.ts): how an export's end
 * is told, in the dialog or, when the dialog was closed meanwhile, in a toast.
 */

const fake = fakeBridge()
installBridge(fake)
const { useExportsStore } = await import('../../src/renderer/stores/exports')
const { useToastsStore } = await import('../../src/renderer/stores/toasts')

const ended = (state: 'done' | 'failed' | 'cancelled', change: Record<string, unknown> = {}) =>
  ({ runId: 'x1', state, durationMs: 1, message: null, fileName: 'rows.csv', rows: 1_234, rowsWanted: 2_000, bytes: 1, downloadUrl: null, ...change })
const REQUEST = { connectionId: 'c1', request: {}, format: 'csv' } as never
const toastTexts = () => useToastsStore().toasts.map((toast) => [toast.tone, toast.message])

beforeEach(() => {
  fake.clear()
  setActivePinia(createPinia())
})

describe('exports store', () => {
  it('says a done export in a toast with its rows and file, and the dialog closes', async () => {
    const exports = useExportsStore()
    fake.answers['export:start'] = ended('done')
    expect(await exports.start(REQUEST)).toBe(true)
    await settle()
    expect(toastTexts()).toEqual([['info', 'Exported 1,234 rows to rows.csv.']])
    expect(exports.completed).toBe(1)
    expect(exports.status).toBeNull()
    expect(exports.phase).toBe('choosing')
  })

  it('shows a failure in the open dialog, and in a toast too when the dialog was closed', async () => {
    const exports = useExportsStore()
    exports.dialogOpen = true
    fake.answers['export:start'] = ended('failed', { message: 'The folder is read-only.' })
    await exports.start(REQUEST)
    await settle()
    expect(exports.failure).toBe('The folder is read-only.')
    expect(toastTexts()).toEqual([])
    exports.dialogOpen = false
    await exports.start(REQUEST)
    await settle()
    expect(toastTexts()).toEqual([['danger', 'Export failed: The folder is read-only.']])
    expect(exports.completed).toBe(0)
  })

  it('keeps what a cancel said, starts nothing when the save dialog was closed, and one export at a time', async () => {
    const exports = useExportsStore()
    fake.answers['export:start'] = ended('cancelled', { message: 'Export cancelled: 200 rows kept in rows.csv.' })
    await exports.start(REQUEST)
    await settle()
    expect(exports.note).toBe('Export cancelled: 200 rows kept in rows.csv.')
    fake.answers['export:start'] = null
    expect(await exports.start(REQUEST)).toBe(false)
    fake.hold('export:start')
    const first = exports.start(REQUEST)
    expect(exports.phase).toBe('starting')
    expect(await exports.start(REQUEST)).toBe(false)
    fake.held[0]!.answer(null)
    expect(await first).toBe(false)
    expect(fake.calls.filter((call) => call.channel === 'export:start')).toHaveLength(3)
  })
})
