import { describe, expect, it } from 'vitest'
import { comparisonFileName } from '../../src/shared/compare/comparison-csv'
import { exportFileName } from '../../src/shared/export/file-name'
import { fileNameStem, suggestedFileName } from '../../src/shared/file-names'
import type { QueryRequest } from '../../src/shared/query/model'
import { judgmentFileName } from '../../src/shared/relevance/judgment-files'

/** UTF-8 bytes, as Linux and macOS count a file name's length (255 at most). */
const bytes = (text: string) => new TextEncoder().encode(text).length

describe('the one rule for suggested file names', () => {
  it('keeps the name as written: case, spaces, accents, other scripts, punctuation a file system takes', () => {
    expect(suggestedFileName('Italian cities', 'csv', 'judgments')).toBe('Italian cities.csv')
    expect(suggestedFileName('Ünïcode — Städte (2024), v2', 'csv', 'x')).toBe('Ünïcode — Städte (2024), v2.csv')
    expect(suggestedFileName('東京の駅', 'qrels', 'x')).toBe('東京の駅.qrels')
    expect(suggestedFileName("O'Brien & sons; 50% [draft] #1", 'json', 'x')).toBe("O'Brien & sons; 50% [draft] #1.json")
    expect(suggestedFileName('Cities', 'run.txt', 'x')).toBe('Cities.run.txt')
  })

  it('writes a name the same whichever way its accents were typed (NFC)', () => {
    expect(suggestedFileName('Sta\u0308dte', 'csv', 'x')).toBe('St\u00e4dte.csv')
  })

  it('replaces slashes and what Windows reserves by a space, one space for a run, and collapses white space', () => {
    expect(suggestedFileName('a/b\\c: "d"?', 'csv', 'x')).toBe('a b c d.csv')
    expect(suggestedFileName('../../etc/passwd', 'csv', 'x')).toBe('etc passwd.csv')
    expect(suggestedFileName('<script>|*', 'csv', 'x')).toBe('script.csv')
    expect(suggestedFileName('two  spaces\tand\na line', 'csv', 'x')).toBe('two spaces and a line.csv')
  })

  it('takes out control characters and bidirectional overrides, so a name cannot read as another', () => {
    expect(suggestedFileName('evil\u202Etxt.exe', 'csv', 'x')).toBe('evil txt.exe.csv')
    expect(suggestedFileName('a\u0000b\u001bc\u0085d\u2066e\u061cf', 'csv', 'x')).toBe('a b c d e f.csv')
  })

  it('never makes a hidden file, nor ends the stem in a dot or a space (Windows drops them)', () => {
    expect(suggestedFileName('..hidden. ', 'csv', 'x')).toBe('hidden.csv')
    expect(suggestedFileName('.env', 'csv', 'x')).toBe('env.csv')
    expect(suggestedFileName(' padded ', 'csv', 'x')).toBe('padded.csv')
  })

  it('gives the fallback when nothing of the name is left: empty, white space, dots, refused characters', () => {
    for (const name of ['', '   ', '...', '???', '/', '\u202E']) expect(suggestedFileName(name, 'csv', 'judgments')).toBe('judgments.csv')
    expect(fileNameStem('///')).toBe('')
  })

  it("does not offer Windows' device names, with or without an extension", () => {
    expect(suggestedFileName('CON', 'csv', 'judgments')).toBe('CON judgments.csv')
    expect(suggestedFileName('nul', 'run.txt', 'evaluation')).toBe('nul evaluation.run.txt')
    expect(suggestedFileName('com1.backup', 'csv', 'judgments')).toBe('com1 judgments.backup.csv')
    expect(suggestedFileName('Console', 'csv', 'judgments')).toBe('Console.csv')
    expect(suggestedFileName('LPT10', 'csv', 'judgments')).toBe('LPT10.csv')
  })

  it('cuts a very long name to 80 characters and 160 bytes, never inside a character a person sees as one', () => {
    const words = suggestedFileName('word '.repeat(100), 'csv', 'x')
    expect(words).toBe(`${'word '.repeat(16).trim()}.csv`)
    const emoji = suggestedFileName('😀'.repeat(100), 'csv', 'x')
    expect(emoji).toBe(`${'😀'.repeat(40)}.csv`)
    expect(bytes(emoji)).toBeLessThanOrEqual(255)
    // A family is one character of four people and three joiners (25 bytes): six fit in 160 bytes, never part of a seventh.
    const family = '👨‍👩‍👧‍👦'
    expect(suggestedFileName(family.repeat(10), 'csv', 'x')).toBe(`${family.repeat(6)}.csv`)
    const accents = suggestedFileName('é'.repeat(100), 'csv', 'x')
    expect(accents).toBe(`${'é'.repeat(80)}.csv`)
    for (const name of [words, emoji, accents, suggestedFileName('東'.repeat(300), 'run.txt', 'x')]) expect(bytes(name)).toBeLessThanOrEqual(255)
  })
})

describe('every file name the app offers follows it', () => {
  const request: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: {} }

  it("a set's judgments, an export and a comparison are all named as written (the run file: test/main/run-file.test.ts)", () => {
    expect(judgmentFileName('quepid-csv', 'Italian cities')).toBe('Italian cities.csv')
    expect(judgmentFileName('trec-qrels', 'Italian cities')).toBe('Italian cities.qrels')
    expect(exportFileName({ request, savedQuery: 'Italian cities' }, 'csv')).toBe('Italian cities.csv')
    const side = (label: string) => ({ label })
    expect(comparisonFileName({ depth: 10, a: side('Demo, config default'), b: side('Demo, config production') } as Parameters<typeof comparisonFileName>[0])).toBe(
      'Top 10 of Demo, config default vs Demo, config production.csv',
    )
  })

  it('each keeps to the rule on hostile names', () => {
    expect(judgmentFileName('quepid-csv', '../x/CON')).toBe('x CON.csv')
    expect(exportFileName({ request, savedQuery: '..\\..\\secret' }, 'json')).toBe('secret.json')
  })
})
