import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CODE_LIFETIME_MS } from '../../src/main/host/launch-codes'
import { cleanStaleLaunchPages, LAUNCH_PAGE_PREFIX, writeLaunchPage } from '../../src/main/host/launch-page'

/** Every case works in a temp folder of its own, passed in: the machine's real temp folder and others' pages in it are never touched. */

const uid = process.getuid!()
const OLD = () => new Date(Date.now() - CODE_LIFETIME_MS - 60_000)

describe('launch pages', () => {
  let tmp = ''
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'qe-launch-pages-'))
  })
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true })
  })

  /** A folder as a run of the browser host leaves it: its page inside, aged as asked. */
  function leftBehind(name: string, options: { old?: boolean; extra?: string } = {}): string {
    const folder = join(tmp, name)
    mkdirSync(folder, { mode: 0o700 })
    writeFileSync(join(folder, 'open.html'), '<!doctype html>', { mode: 0o600 })
    if (options.extra) writeFileSync(join(folder, options.extra), 'not ours')
    if (options.old) utimesSync(folder, OLD(), OLD())
    return folder
  }

  it('writes the page into a private folder of its own, escaped, and removes it once, synchronously', () => {
    const page = writeLaunchPage('http://127.0.0.1:1234/#code=a&b"<c>', tmp)
    expect(page.folder.startsWith(join(tmp, LAUNCH_PAGE_PREFIX))).toBe(true)
    expect(statSync(page.folder).mode & 0o777).toBe(0o700)
    expect(statSync(page.page).mode & 0o777).toBe(0o600)
    expect(fileURLToPath(page.href)).toBe(page.page)
    const html = readFileSync(page.page, 'utf8')
    expect(html).toContain('content="0;url=http://127.0.0.1:1234/#code=a&#38;b&#34;&#60;c&#62;"')
    expect(html).toContain('name="referrer" content="no-referrer"')
    expect(page.remove()).toBe(true)
    expect(existsSync(page.folder)).toBe(false)
    // Again (the exit handler after a stop, the timer after both): nothing to do, nothing thrown.
    expect(page.remove()).toBe(false)
  })

  it('cleans a stale folder and keeps a fresh one (another instance running now), a foreign name, a link, and one holding more than the page', () => {
    const stale = leftBehind(`${LAUNCH_PAGE_PREFIX}Ab12Cd`, { old: true })
    const fresh = leftBehind(`${LAUNCH_PAGE_PREFIX}Ef34Gh`)
    const otherName = leftBehind('query-explorer-opener-x', { old: true })
    const longer = leftBehind(`${LAUNCH_PAGE_PREFIX}Ab12Cd-backup`, { old: true })
    const busy = leftBehind(`${LAUNCH_PAGE_PREFIX}Ij56Kl`, { old: true, extra: 'notes.txt' })
    // A link named like ours, to an old folder elsewhere: neither it nor what it points to is ours to remove.
    const target = leftBehind('elsewhere', { old: true })
    const link = join(tmp, `${LAUNCH_PAGE_PREFIX}Mn78Op`)
    symlinkSync(target, link)
    const plainFile = join(tmp, `${LAUNCH_PAGE_PREFIX}Qr90St`)
    writeFileSync(plainFile, '')
    utimesSync(plainFile, OLD(), OLD())

    expect(cleanStaleLaunchPages(tmp, { uid })).toEqual([stale])

    expect(existsSync(stale)).toBe(false)
    for (const kept of [fresh, otherName, longer, busy, link, target, plainFile]) expect(existsSync(kept), kept).toBe(true)
    expect(existsSync(join(target, 'open.html'))).toBe(true)
  })

  it('keeps a stale folder that belongs to another user', () => {
    const stale = leftBehind(`${LAUNCH_PAGE_PREFIX}Uv12Wx`, { old: true })
    // As seen by another user: the folder is not theirs.
    expect(cleanStaleLaunchPages(tmp, { uid: uid + 1 })).toEqual([])
    expect(existsSync(stale)).toBe(true)
  })

  it.skipIf(uid !== 0)('keeps a stale folder another user really owns (needs root to give it away)', () => {
    const theirs = leftBehind(`${LAUNCH_PAGE_PREFIX}Yz34Ab`, { old: true })
    chownSync(theirs, 65534, 65534)
    utimesSync(theirs, OLD(), OLD())
    const ours = leftBehind(`${LAUNCH_PAGE_PREFIX}Cd56Ef`, { old: true })
    expect(cleanStaleLaunchPages(tmp)).toEqual([ours])
    expect(existsSync(theirs)).toBe(true)
  })

  it('judges age against the launch code lifetime: just under it stays, just over it goes', () => {
    const folder = leftBehind(`${LAUNCH_PAGE_PREFIX}Gh78Ij`)
    const written = statSync(folder).mtimeMs
    expect(cleanStaleLaunchPages(tmp, { uid, now: written + CODE_LIFETIME_MS })).toEqual([])
    expect(existsSync(folder)).toBe(true)
    expect(cleanStaleLaunchPages(tmp, { uid, now: written + CODE_LIFETIME_MS + 1 })).toEqual([folder])
    expect(readdirSync(tmp)).toEqual([])
  })

  it('says nothing and throws nothing for a temp folder that is not there', () => {
    expect(cleanStaleLaunchPages(join(tmp, 'missing'), { uid })).toEqual([])
  })
})
