import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvField, csvPlainRecord, csvQuote, csvRecord, parseCsv } from '../../src/shared/export/csv'

describe('csv reading and writing (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and any line end', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\n1,,3\r4,5,\r\n'
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\r\nlines'],
      ['1', '', '3'],
      ['4', '5', ''],
    ])
  })

  it('skips a byte-order mark and blank lines, and reads a last record with no line end', () => {
    expect(parseCsv('\uFEFFrank,probability\r\n\r\n1,0.5')).toEqual([
      ['rank', 'probability'],
      ['1', '0.5'],
    ])
    expect(parseCsv('')).toEqual([])
  })

  it('refuses a quoted field that never closes', () => {
    expect(() => parseCsv('a,"b\r\n1,2\r\n')).toThrow(/never closes/)
  })

  it('writes what it reads: any table of texts round-trips', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\r', '\n', ' ', '1', '=', '-') })
    // A record of one empty field is a blank line, which holds no record: rows here have two fields at least, as every export's do.
    const table = fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { maxLength: 6 })
    fc.assert(
      fc.property(table, (rows) => {
        // A text the formula guard would prefix (white space or a sign first) is kept out: that guard has tests of its own.
        const safe = rows.map((row) => row.map((value) => (/^[\s=+\-@]/.test(value) ? `x${value}` : value)))
        expect(parseCsv(safe.map(csvRecord).join(''))).toEqual(safe)
      }),
    )
  })

  it("quotes without the formula guard where the data must stay as it is (the service's answers)", () => {
    expect(csvQuote('=HYPERLINK("http://x","y")')).toBe('"=HYPERLINK(""http://x"",""y"")"')
    expect(csvQuote('@SUM(A1)')).toBe('@SUM(A1)')
    expect(csvQuote(' =1+1')).toBe(' =1+1')
    expect(csvQuote('two\r\nlines')).toBe('"two\r\nlines"')
    expect(csvPlainRecord(['1', '-2+3', 'a,b', 'say "hi"'])).toBe('1,-2+3,"a,b","say ""hi"""\r\n')
    // The guarded field is the plain one of the guarded text.
    expect(csvField('@SUM(A1)')).toBe(csvQuote("'@SUM(A1)"))
  })

  it('writes what it reads without the guard too: any table of texts round-trips', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\r', '\n', ' ', '1', '=', '-', '@', '\t') })
    const table = fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { maxLength: 6 })
    fc.assert(
      fc.property(table, (rows) => {
        expect(parseCsv(rows.map(csvPlainRecord).join(''))).toEqual(rows)
      }),
    )
  })

  it('quotes only when needed, and neutralizes a text a spreadsheet would run as a formula', () => {
    expect(csvRecord(['1', 'São Paulo', 'a,b', 'say "hi"'])).toBe('1,São Paulo,"a,b","say ""hi"""\r\n')
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`)
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvField('+1-2')).toBe("'+1-2")
    // Numbers are data, negative ones too.
    expect(csvField('-28')).toBe('-28')
    expect(csvField('-0.5e3')).toBe('-0.5e3')
    expect(csvField('+7')).toBe('+7')
  })

  it('neutralizes what a spreadsheet trims or folds before it looks for a formula: spaces, line breaks, fullwidth signs', () => {
    expect(csvField(' =1+1')).toBe("' =1+1")
    expect(csvField('\u00a0\u3000@SUM(A1)')).toBe("'\u00a0\u3000@SUM(A1)")
    expect(csvField('\n=1+1')).toBe(`"'\n=1+1"`)
    expect(csvField('\r\n-2+3')).toBe(`"'\r\n-2+3"`)
    expect(csvField('\tanything')).toBe("'\tanything")
    expect(csvField('\nplain')).toBe('"\nplain"')
    expect(csvField('\uff1d1+1')).toBe("'\uff1d1+1")
    expect(csvField('\uff0bcmd')).toBe("'\uff0bcmd")
    expect(csvField('\uff20SUM(A1)')).toBe("'\uff20SUM(A1)")
    // Text that merely contains a sign, and plain text after spaces, stays as it is.
    expect(csvField('  San Marino')).toBe('  San Marino')
    expect(csvField('a=b')).toBe('a=b')
  })

  it('tests a long cell in time linear in its length (a sign, 100,000 digits and a letter)', () => {
    // The number test backtracked quadratically: this cell held the main process for 16 s.
    const cell = `+${'1'.repeat(100_000)}x`
    expect(csvField(cell)).toBe(`'${cell}`)
    expect(csvField(`-${'9'.repeat(100_000)}`)).toBe(`-${'9'.repeat(100_000)}`)
  })
})
