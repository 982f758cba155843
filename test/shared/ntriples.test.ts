import { describe, expect, it } from 'vitest'
import { ntriplesStatements } from '../../src/shared/export/ntriples'

describe('N-Triples pages', () => {
  it('are their statements, one a line; blank lines and comments are not rows', () => {
    const text = '<a> <b> "x" .\r\n\n# a comment\n<c> <d> <e> .\n'
    expect(ntriplesStatements(text)).toEqual(['<a> <b> "x" .', '<c> <d> <e> .'])
  })
})
