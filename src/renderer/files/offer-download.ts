/**
 * Offers text the page already holds as a file, as a link the user clicked
 * would: a download in the browser host, Electron's save dialog in its window.
 */
export function offerDownload(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once it started; the address is only needed for the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/**
 * Opens a one-time download address main made (`/downloads/<ticket>`):
 * Chromium's download manager fetches it and writes the file, so its bytes
 * never pass through the page's script.
 */
export function openDownload(url: string, fileName: string): void {
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
}
