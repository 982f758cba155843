/**
 * One header for the pages of a csv or xlsx export. The service names the
 * columns of each page from what that page holds (`n.<attribute>` for every
 * attribute seen on it, SERVICE-CONTRACT "Formats"), so two pages may have
 * different columns. The export's header is their union, and every row is
 * moved under it: a cell stays under the name it had on its page.
 */

/**
 * A column's key: its name, and for the second and later columns of one page
 * with the same name (an attribute called `id` gives a second `1.id`) its
 * occurrence, so that neither overwrites the other.
 */
export function columnKeys(header: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return header.map((name) => {
    const times = seen.get(name) ?? 0
    seen.set(name, times + 1)
    return times === 0 ? name : `${name}\u0000${times + 1}`
  })
}

/** The name written in the header for a key. */
export function columnName(key: string): string {
  const cut = key.indexOf('\u0000')
  return cut < 0 ? key : key.slice(0, cut)
}

/** `rank`, `probability`, or the tuple column of `n`, `n.id`, `n.<attribute>`. */
function groupOf(key: string): string {
  const dot = key.indexOf('.')
  return dot < 0 ? key : key.slice(0, dot)
}

/** A sheet's widest (Excel's and LibreOffice's limit), and far past any real answer: a page wider than this is refused. */
export const MAX_EXPORT_COLUMNS = 16_384

/** Why a union of `count` columns is refused, or null when it is within the bound. */
export function tooManyColumns(count: number): string | null {
  return count > MAX_EXPORT_COLUMNS
    ? `its pages have ${count.toLocaleString('en-US')} columns together, more than the ${MAX_EXPORT_COLUMNS.toLocaleString('en-US')} an export takes (a spreadsheet's widest).`
    : null
}

/**
 * The union of the keys so far and a page's keys, in the order first seen,
 * except that a column new to a tuple column joins the end of that tuple
 * column's group (a `1.elevation` first seen on page 3 stands among the
 * `1.` columns, not after the `2.` ones), as the service orders one page.
 * Built group by group, in one pass over each list: a page of many columns
 * costs its length, never its length squared.
 */
export function mergeColumns(union: readonly string[], keys: readonly string[]): string[] {
  const groups = new Map<string, string[]>()
  const known = new Set<string>()
  for (const key of [...union, ...keys]) {
    if (known.has(key)) continue
    known.add(key)
    const group = groupOf(key)
    const members = groups.get(group)
    if (members) members.push(key)
    else groups.set(group, [key])
  }
  return [...groups.values()].flat()
}

/** For each column of the union, where the page has it (-1: the page does not). */
export function alignment(union: readonly string[], keys: readonly string[]): number[] {
  const at = new Map(keys.map((key, index) => [key, index]))
  return union.map((key) => at.get(key) ?? -1)
}

/** A page's row under the union's columns; `empty` where the page had no such column (or the row was short). */
export function realign<T>(row: readonly T[], map: readonly number[], empty: T): T[] {
  const out = new Array<T>(map.length)
  for (let i = 0; i < map.length; i++) {
    const from = map[i]!
    out[i] = from >= 0 && from < row.length ? row[from]! : empty
  }
  return out
}
