import { describe, expect, it } from 'vitest'
import { pinnedOffsets, scrollLeftToRevealLabel } from '../../src/renderer/components/results/pinned-columns'

// Rank 60, probability 130, id 80, class 80, name 240, country 90: Rank (0) and name (4) pinned.
const widths = [60, 130, 80, 80, 240, 90]
const pinned = pinnedOffsets([0, 4], widths)

describe('scrollLeftToRevealLabel', () => {
  it('scrolls the name column next to Rank, where it sticks: its left (350) less Rank (60)', () => {
    expect(pinned.get(4)).toBe(60)
    expect(scrollLeftToRevealLabel(pinned, widths, 0)).toBe(290)
  })

  it('leaves a grid scrolled that far or further as it is', () => {
    expect(scrollLeftToRevealLabel(pinned, widths, 290)).toBeNull()
    expect(scrollLeftToRevealLabel(pinned, widths, 400)).toBeNull()
  })

  it('does nothing without a label column pinned beside Rank', () => {
    expect(scrollLeftToRevealLabel(pinnedOffsets([0], widths), widths, 0)).toBeNull()
    expect(scrollLeftToRevealLabel(new Map(), widths, 0)).toBeNull()
  })
})
