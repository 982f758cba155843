import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { QueryRequest } from '../../src/shared/query/model'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor } from '../../src/shared/results/table'
import { SAN_IN_EUROPE } from '../fixtures/search-request'
import { activeWindow, clearWindowAfterEach, recordingBridge } from './mount-with-bridge'

/**
 * The export dialog as a user meets it (issue 23 §2, item 1): it offers the
 * rows Load more added, the grid's columns with the headers the file gets,
 * and a file name after the saved query; the page shown is exported from its
 * own offset, and a row count out of bounds is named and sends nothing.
 */

const { bridge, sent } = recordingBridge({ 'export:start': null })
clearWindowAfterEach(() => void (sent.length = 0))

const request = SAN_IN_EUROPE

const item = (rank: number): ResultItem =>
  ({ rank, probability: 1 - rank / 100, tuple: [{ id: `id${rank}`, class: ['city'], attributes: { name: `Town ${rank}`, country: 'ES', population: rank } }] }) as ResultItem


describe('Export dialog', () => {
  it('after Load more offers the loaded rows first, the grid\'s columns as the file names them, and a name after the saved query', async () => {
    const pinia = activeWindow(bridge)
    const { useQueryStore } = await import('../../src/renderer/stores/query')
    const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')
    const query = useQueryStore()
    query.shown = { connectionId: 'demo', request }
    query.items = Array.from({ length: 30 }, (_, i) => item(i + 1))
    query.shownCount = 10
    useWorkspaceStore().savedQuery = 'San Europe'
    const columns = columnsFor(query.items, { chosen: new Set(['1.name', '1.country']) })
    const { default: ExportDialog } = await import('../../src/renderer/components/results/ExportDialog.vue')
    const screen = await render(ExportDialog, { props: { open: false, columns }, global: { plugins: [pinia] } })
    // The Export button opens it, as in the results panel.
    await screen.rerender({ open: true, columns })

    const dialog = screen.getByRole('dialog', { name: 'Export results' })
    await expect.element(dialog.getByRole('radio', { name: 'Loaded rows' })).toBeChecked()
    const grid = dialog.getByRole('radiogroup', { name: 'Columns' }).getByRole('radio', { name: 'As the grid shows them' })
    await expect.element(grid).toBeChecked()
    await expect.element(grid).toHaveAccessibleDescription('6 columns: rank, probability, id, class, name, country')
    await expect.element(dialog.getByRole('status', { name: 'File name' })).toHaveTextContent('San Europe.csv')

    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)).toEqual({
      channel: 'export:start',
      request: { connectionId: 'demo', request, format: 'csv', rows: 30, columns: ['rank', 'probability', '1.id', '1.class', '1.name', '1.country'], savedQuery: 'San Europe' },
    })

    await dialog.getByRole('radio', { name: 'Every column the service sends' }).click()
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)?.request).not.toHaveProperty('columns')

    await dialog.getByRole('radio', { name: 'JSON' }).click()
    await expect.element(dialog.getByRole('radiogroup', { name: 'Columns' })).not.toBeInTheDocument()
    await expect.element(dialog.getByRole('status', { name: 'File name' })).toHaveTextContent('San Europe.json')
  })
  async function mountPage(offset: number) {
    const pinia = activeWindow(bridge)
    const { useQueryStore } = await import('../../src/renderer/stores/query')
    const query = useQueryStore()
    query.shown = { connectionId: 'demo', request: { ...request, options: { count: 10, offset } } }
    query.items = Array.from({ length: 10 }, (_, i) => item(offset + i + 1))
    query.shownOffset = offset
    query.shownCount = 10
    const columns = columnsFor(query.items, { chosen: new Set(['1.name']) })
    const { default: ExportDialog } = await import('../../src/renderer/components/results/ExportDialog.vue')
    const screen = await render(ExportDialog, { props: { open: false, columns }, global: { plugins: [pinia] } })
    await screen.rerender({ open: true, columns })
    return screen.getByRole('dialog', { name: 'Export results' })
  }

  it('exports the page shown from its own offset, named after the search when no saved query is open', async () => {
    const dialog = await mountPage(20)
    const page = dialog.getByRole('radio', { name: 'This page' })
    await expect.element(page).toBeChecked()
    await expect.element(page).toHaveAccessibleDescription('rows 21–30')
    await expect.element(dialog.getByRole('radio', { name: 'Loaded rows' })).not.toBeInTheDocument()
    await dialog.getByRole('radio', { name: 'XML' }).click()
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)).toEqual({
      channel: 'export:start',
      request: { connectionId: 'demo', request: { ...request, options: { count: 10, offset: 20 } }, format: 'xml', rows: 10 },
    })
  })

  it('names the rule for a row count out of bounds and sends nothing; a count in bounds is asked from the first row', async () => {
    const dialog = await mountPage(20)
    const rows = dialog.getByRole('spinbutton', { name: 'Number of rows' })
    await rows.fill('0')
    // Typing a number chooses "Up to".
    await expect.element(dialog.getByRole('radio', { name: 'Up to' })).toBeChecked()
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    await expect.element(rows).toHaveAccessibleDescription(/^Enter a whole number of rows from 1 to [\d,]+\./)
    await expect.element(rows).toHaveAttribute('aria-invalid', 'true')
    await rows.fill('2.5')
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent).toEqual([])

    await rows.fill('250')
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)?.request).toMatchObject({ request: { options: { count: 10 } }, format: 'csv', rows: 250, columns: ['rank', 'probability', '1.id', '1.class', '1.name'] })
    expect((sent.at(-1)?.request as { request: QueryRequest }).request.options).not.toHaveProperty('offset')
  })
})
