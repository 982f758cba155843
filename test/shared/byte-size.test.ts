import { describe, expect, it } from 'vitest'
import { formatBytes } from '../../src/shared/byte-size'

describe('formatBytes', () => {
  it('gives bytes below 1 KiB as a whole number', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1023 B')
  })

  it('gives KiB and MiB in binary units, to one decimal', () => {
    expect(formatBytes(1024)).toBe('1.0 KiB')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(1024 * 1024 - 1)).toBe('1024.0 KiB')
    expect(formatBytes(1024 * 1024)).toBe('1.0 MiB')
    expect(formatBytes(64 * 1024 * 1024)).toBe('64.0 MiB')
    expect(formatBytes(2 * 1024 * 1024 * 1024)).toBe('2048.0 MiB')
  })
})
