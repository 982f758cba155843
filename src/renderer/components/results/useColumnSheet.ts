import { onBeforeUnmount, watchEffect, type Ref } from 'vue'

let grids = 0

/**
 * Column widths, and where pinned columns stick, as one stylesheet
 * (`nth-child` rules scoped to one grid) instead of a style on every cell:
 * rows coming into view while scrolling carry no sizes of their own, and
 * resizing a column rewrites one rule set. Returns the value of the
 * `data-grid` attribute the scope is keyed on.
 */
export function useColumnSheet(widths: Ref<number[]>, pinned: Ref<ReadonlyMap<number, number>>): string {
  const scope = `g${++grids}`
  const sheet = new CSSStyleSheet()
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  let written = ''
  watchEffect(() => {
    const rules = widths.value
      .map((width, c) => {
        const left = pinned.value.get(c)
        return `[data-grid="${scope}"] .grid__row > :nth-child(${c + 1}) { width: ${width}px${left === undefined ? '' : `; --pin-left: ${left}px`} }`
      })
      .join('\n')
    // A sheet replaced restyles every cell of the grid, even with the same rules (a new answer of the same widths).
    if (rules === written) return
    written = rules
    sheet.replaceSync(rules)
  })
  onBeforeUnmount(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet)
  })
  return scope
}
