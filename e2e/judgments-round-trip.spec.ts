import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { DESKTOP, openApp } from './fixtures/laptop'
import { openWorld, showView } from './fixtures/workbench'

/**
 * Import what you export (browser host, by accessible names): the example
 * set's judgments exported in each format the view offers, grown past 1 MiB
 * with the judgments of a new query written in that same format, imported
 * back through the file picker, and exported again: the file that comes out
 * is the file that went in, byte for byte, and the set counts every judgment
 * (a Quepid CSV's under its raters' names; a qrels or RRE file's, which hold
 * the aggregate, as the file's own rater's beside them).
 * A file that size crosses the page in parts (the host's upload route); it
 * was refused outright when it travelled as one message's text. A file
 * over the 20 MiB bound is refused in words that say so.
 */

const SET = 'World cities (synthetic judgments)'
const QUERIES = 36
const JUDGMENTS = 2349
/** The items judged, each by the set's three raters: what a file of one grade per item (qrels, RRE) holds. */
const ITEMS = 783
const ONE_MIB = 1024 * 1024
const OUT = 'e2e/output/round-trip'

const view = (page: Page) => page.getByRole('region', { name: 'Evaluation' })

type Label = 'TREC qrels' | 'Quepid CSV' | 'RRE ratings JSON'

/** Exports the set's judgments as `label` from the view's menu and reads the downloaded file. */
async function exportAs(page: Page, label: Label): Promise<{ fileName: string; text: string }> {
  const downloading = page.waitForEvent('download')
  await view(page).getByText('Export judgments', { exact: true }).click()
  await view(page).getByRole('group', { name: 'Export judgments as' }).getByRole('button', { name: label }).click()
  const download = await downloading
  await view(page).getByText('Export judgments', { exact: true }).click()
  return { fileName: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') }
}

/** A judgment's item id: long, as real document URLs are, so 1 MiB of file is ~9,000 judgments and the workspace stays well inside its bound. */
const itemId = (index: number) => `roundtrip-${String(index).padStart(6, '0')}-${'x'.repeat(96)}`

/**
 * The exported text with the judgments of one new query added, in the
 * format's own spelling and in the order the app writes them (so the export
 * after the import is this text again): until it holds more than 1 MiB.
 */
function grown(label: Label, text: string): { text: string; added: number } {
  const lines: string[] = []
  let size = Buffer.byteLength(text)
  const add = (line: string) => {
    lines.push(line)
    size += Buffer.byteLength(line)
  }
  if (label === 'TREC qrels') {
    // A query named by an id the set lacks: it joins the set with that id as its text.
    while (size <= ONE_MIB) add(`roundtrip 0 ${itemId(lines.length)} ${lines.length % 4}\n`)
    return { text: text + lines.join(''), added: lines.length }
  }
  if (label === 'Quepid CSV') {
    // Records end as the app ends them (RFC 4180's CRLF).
    expect(text.endsWith('\r\n')).toBe(true)
    // A column per rater (Quepid's book shape): the new query's grades are the first rater's, the other cells empty.
    const others = ','.repeat(text.slice(0, text.indexOf('\r\n')).split(',').length - 3)
    while (size <= ONE_MIB) add(`round trip quepid,${itemId(lines.length)},${lines.length % 4}${others}\r\n`)
    return { text: text + lines.join(''), added: lines.length }
  }
  // RRE: one more query group before the list's end, indented as the app indents.
  const end = '\n  ]\n}\n'
  expect(text.endsWith(end)).toBe(true)
  const head = ',\n    {\n      "name": "round trip rre",\n      "queries": [\n        {\n          "template": "template.json",\n          "placeholders": {\n            "$query": "round trip rre"\n          }\n        }\n      ],\n      "relevant_documents": {\n'
  const tail = '\n      }\n    }'
  size += Buffer.byteLength(head + tail)
  while (size <= ONE_MIB) add(`${lines.length > 0 ? ',\n' : ''}        ${JSON.stringify(itemId(lines.length))}: {\n          "gain": ${lines.length % 4}\n        }`)
  return { text: `${text.slice(0, -end.length)}${head}${lines.join('')}${tail}${end}`, added: lines.length }
}

for (const label of ['TREC qrels', 'Quepid CSV', 'RRE ratings JSON'] as const) {
  test(`the example set exported as ${label}, grown past 1 MiB, imports back unchanged`, async ({ page, app }) => {
    await openApp(page, app, DESKTOP)
    await openWorld(page)
    await showView(page, 'Evaluation')
    await expect(view(page).getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)
    await expect(view(page)).toContainText(`${QUERIES} queries · ${JUDGMENTS} judgments`)

    const exported = await exportAs(page, label)
    const file = grown(label, exported.text)
    expect(Buffer.byteLength(file.text)).toBeGreaterThan(ONE_MIB)
    mkdirSync(OUT, { recursive: true })
    const path = join(OUT, exported.fileName)
    writeFileSync(path, file.text)

    const chooser = page.waitForEvent('filechooser')
    await view(page).getByRole('button', { name: 'Import judgments' }).click()
    await (await chooser).setFiles(path)
    // Every judgment of the file read, none replaced, one query new. Quepid CSV names its raters, so its grades are
    // theirs again; qrels and RRE hold the aggregate (one grade per item), which joins the raters' as the file's own.
    const read = label === 'Quepid CSV' ? JUDGMENTS + file.added : ITEMS + file.added
    const total = label === 'Quepid CSV' ? JUDGMENTS + file.added : JUDGMENTS + ITEMS + file.added
    await expect(page.getByRole('status').getByText(`Imported ${read} judgments, 1 new query from ${exported.fileName}.`)).toBeVisible()
    await expect(view(page)).toContainText(`${QUERIES + 1} queries · ${total} judgments`)
    await expect(page.getByRole('alert')).toHaveCount(0)

    const again = await exportAs(page, label)
    expect(again.fileName).toBe(exported.fileName)
    expect(again.text.length).toBe(file.text.length)
    expect(again.text === file.text, 'the export after the import is the file imported').toBe(true)
  })
}

test('a judgments file over 20 MiB is refused in words that say the bound, and the set is unchanged', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await showView(page, 'Evaluation')
  mkdirSync(OUT, { recursive: true })
  const path = join(OUT, 'too-large.qrels')
  writeFileSync(path, '')
  truncateSync(path, 20 * ONE_MIB + 1)

  const chooser = page.waitForEvent('filechooser')
  await view(page).getByRole('button', { name: 'Import judgments' }).click()
  await (await chooser).setFiles(path)
  await expect(page.getByRole('alert')).toHaveText(
    /"too-large\.qrels" holds 20,971,521 bytes; a file sent to the app may hold at most 20\.0 MiB \(20,971,520 bytes\)\. Split it into smaller files\./,
  )
  await expect(view(page)).toContainText(`${QUERIES} queries · ${JUDGMENTS} judgments`)
})
