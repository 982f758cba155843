import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkOutputPath, writeOutput } from '../../src/cli/output-files'
import { createRedactor } from '../../src/shared/security/redaction'

/**
 * The files a command writes besides its output (--junit, --trec-run): a
 * path that cannot be written is bad input naming the flag, the path and
 * why in words, checked before a run; the file never holds a secret of the run.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-output-files-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('checkOutputPath', () => {
  it('accepts a new file, making its folders as the write would, and leaves nothing behind', async () => {
    const path = join(dir, 'reports', 'ci', 'junit.xml')
    await checkOutputPath('--junit', path)
    expect(readdirSync(join(dir, 'reports', 'ci'))).toEqual([])
    expect(existsSync(path)).toBe(false)
  })

  it('refuses a folder, saying nothing was run', async () => {
    const folder = join(dir, 'a-folder')
    mkdirSync(folder)
    await expect(checkOutputPath('--junit', folder)).rejects.toMatchObject({ name: 'InputError', lines: [`--junit: "${folder}" is a folder, not a file; nothing was run.`] })
  })

  it('refuses a place where no file can be made, saying why in words, not the temporary name it tried', async () => {
    await expect(checkOutputPath('--trec-run', '/proc/self/x.run')).rejects.toMatchObject({
      lines: ['--trec-run: "/proc/self/x.run" cannot be written: no file can be made in that folder; nothing was run.'],
    })
  })

  it('refuses a path that goes through a file as through a folder, in words', async () => {
    const file = join(dir, 'a-file.txt')
    await writeOutput('--junit', file, 'x', {})
    // Its parent is the file itself (the folder made is the file: EEXIST), or a folder under it (ENOTDIR).
    for (const path of [join(file, 'junit.xml'), join(file, 'reports', 'junit.xml')]) {
      await expect(checkOutputPath('--junit', path)).rejects.toMatchObject({
        lines: [`--junit: "${path}" cannot be written: a part of its path is a file, not a folder; nothing was run.`],
      })
    }
  })
})

describe('writeOutput', () => {
  it('writes the text, making its folders', async () => {
    const path = join(dir, 'out', 'report.xml')
    await writeOutput('--junit', path, '<testsuites/>\n', {})
    expect(readFileSync(path, 'utf8')).toBe('<testsuites/>\n')
    await writeOutput('--junit', path, '<testsuites tests="1"/>\n', {})
    expect(readFileSync(path, 'utf8')).toBe('<testsuites tests="1"/>\n')
    expect(readdirSync(join(dir, 'out'))).toEqual(['report.xml'])
  })

  it("writes no spelling of the run's secrets: as written, or base64 as a server might echo it", async () => {
    const secrets = createRedactor()
    secrets.add('hunter2-client-secret')
    const path = join(dir, 'scrubbed.xml')
    await writeOutput('--junit', path, `<failure>Invalid client hunter2-client-secret (${Buffer.from('hunter2-client-secret').toString('base64')})</failure>`, { secrets })
    const text = readFileSync(path, 'utf8')
    expect(text).not.toContain('hunter2-client-secret')
    expect(text).not.toContain(Buffer.from('hunter2-client-secret').toString('base64'))
    expect(text).toMatch(/^<failure>Invalid client \[redacted\]/)
  })

  it('refuses a folder or a place where no file can be made as bad input naming the flag, the path and why', async () => {
    await expect(writeOutput('--junit', dir, 'x', {})).rejects.toMatchObject({ name: 'InputError', lines: [`--junit: "${dir}" could not be written: it is a folder.`] })
    await expect(writeOutput('--trec-run', '/proc/self/x.run', 'x', {})).rejects.toMatchObject({ lines: ['--trec-run: "/proc/self/x.run" could not be written: no file can be made in that folder.'] })
  })
})
