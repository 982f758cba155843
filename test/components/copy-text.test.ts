import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { copyText, useCopyFeedback } from '../../src/renderer/clipboard/copy-text'

/**
 * Text put on the clipboard (src/renderer/clipboard/copy-text.ts), read back
 * the way a user would: pasted into a field with Ctrl+V, in Chromium.
 */

const fields: HTMLElement[] = []
afterEach(() => {
  for (const field of fields.splice(0)) field.remove()
})

/** Runs `work` as a click on a button does: the clipboard takes text only from what a user did. */
async function onClick<T>(work: () => Promise<T>): Promise<T> {
  const button = document.body.appendChild(document.createElement('button'))
  button.textContent = 'Copy'
  fields.push(button)
  let done: Promise<T> | null = null
  button.addEventListener('click', () => (done = work()))
  await userEvent.click(button)
  return done!
}

/** What Ctrl+V puts in an empty field. */
async function pasted(): Promise<string> {
  const field = document.body.appendChild(document.createElement('textarea'))
  field.setAttribute('aria-label', 'Paste here')
  fields.push(field)
  field.focus()
  await userEvent.keyboard('{Control>}v{/Control}')
  return field.value
}

describe('copyText', () => {
  it('puts the text on the clipboard, line breaks and all, and leaves nothing behind in the page', async () => {
    expect(await onClick(() => copyText('https://127.0.0.1/query/world/places/search\n  2 lines'))).toBe(true)
    // The stand-in text area of the older way, if it was used, is gone.
    expect(document.querySelectorAll('textarea')).toHaveLength(0)
    expect(await pasted()).toBe('https://127.0.0.1/query/world/places/search\n  2 lines')
  })

  it('says what was copied for the status line', async () => {
    const { message, copy } = useCopyFeedback()
    await onClick(() => copy('Paris\tFrance', 'row 12'))
    expect(message.value).toBe('Copied row 12')
    expect(await pasted()).toBe('Paris\tFrance')
  })
})
