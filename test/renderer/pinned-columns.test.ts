import { describe, expect, it } from 'vitest'
import { pinnedOffsets, scrollLeftToRevealLabel, scrollLeftWithoutSliver } from '../../src/renderer/components/results/pinned-columns'

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

describe('scrollLeftWithoutSliver', () => {
  // Name (natural left 350) sticks beside Rank (60) from a scroll of 290.
  const max = 1000

  it('goes on past a sliver of a column between Rank and name: 5 px of class left at 285 → 290, where name sticks', () => {
    expect(scrollLeftWithoutSliver(285, widths, pinned, max)).toBe(290)
  })

  it('hides a sliver beside Rank before name sticks: 10 px of probability at 120 → 130; 30 px of id stay', () => {
    // Probability spans 60–190: at 120 the edge is 180 (120 + Rank), 10 px of it show.
    expect(scrollLeftWithoutSliver(120, widths, pinned, max)).toBe(130)
    // At 180 the edge is 240: id (190–270) shows 30 px, enough to read.
    expect(scrollLeftWithoutSliver(180, widths, pinned, max)).toBeNull()
  })

  it('hides a sliver beside name once it sticks: 3 px of country', () => {
    // At 377 the edge is 377 + 300 = 677; country spans 590–680.
    expect(scrollLeftWithoutSliver(377, widths, pinned, max)).toBe(380)
  })

  it('leaves a column shown enough to read, the start, and a position it cannot reach', () => {
    expect(scrollLeftWithoutSliver(0, widths, pinned, max)).toBeNull()
    expect(scrollLeftWithoutSliver(230, widths, pinned, max)).toBeNull()
    expect(scrollLeftWithoutSliver(290, widths, pinned, max)).toBeNull()
    expect(scrollLeftWithoutSliver(285, widths, pinned, 287)).toBeNull()
    // The active cell's column, left where the keyboard brought it.
    expect(scrollLeftWithoutSliver(285, widths, pinned, max, 3)).toBeNull()
  })
})
