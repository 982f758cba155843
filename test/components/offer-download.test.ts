import { afterEach, describe, expect, it } from 'vitest'
import { offerDownload, openDownload } from '../../src/renderer/files/offer-download'

/**
 * Files offered from the page (src/renderer/files/offer-download.ts), in
 * Chromium: the link each makes as it is clicked, and what it points at. The
 * click is stopped before the download starts, so no file is written.
 */

interface Clicked {
  href: string
  download: string
  rel: string
  shown: boolean
  inPage: boolean
}
const clicks: Clicked[] = []
function stopDownload(event: MouseEvent): void {
  const link = event.target as HTMLAnchorElement
  event.preventDefault()
  clicks.push({ href: link.href, download: link.download, rel: link.rel, shown: link.checkVisibility(), inPage: link.isConnected })
}
document.addEventListener('click', stopDownload, true)
afterEach(() => void clicks.splice(0))

describe('offer-download', () => {
  it('offers text the page holds as a file of that name and type, through a hidden link that does not stay', async () => {
    offerDownload('Cities.qxw.json', '{"name": "Cities"}\n', 'application/json')
    expect(clicks).toHaveLength(1)
    const [link] = clicks
    expect(link).toMatchObject({ download: 'Cities.qxw.json', shown: false, inPage: true })
    expect(link!.href).toMatch(/^blob:/)
    expect(document.querySelectorAll('a[download]')).toHaveLength(0)
    // The address still holds the text just after the click: the download reads it then.
    const answer = await fetch(link!.href)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(await answer.text()).toBe('{"name": "Cities"}\n')
  })

  it("opens main's one-time download address under the file's name, with no opener, leaving no link behind", () => {
    openDownload('/downloads/ticket-1', 'rows.csv')
    expect(clicks).toEqual([{ href: `${location.origin}/downloads/ticket-1`, download: 'rows.csv', rel: 'noopener', shown: false, inPage: true }])
    expect(document.querySelectorAll('a[download]')).toHaveLength(0)
  })
})
